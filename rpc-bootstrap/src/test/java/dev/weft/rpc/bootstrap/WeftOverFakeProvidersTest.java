package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeProviders;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Application code tested against scripted fakes through the real cluster, balancer, mock and
 * proxy: {@code Weft.refer(type, invokers, parameters)}, the recipe of docs/rpc-testing.md.
 */
class WeftOverFakeProvidersTest {

    private final Weft weft = Weft.builder().build();

    @AfterEach
    void close() {
        weft.close();
    }

    /** Application code under test: it greets through whatever proxy it is given. */
    private static String welcome(Greeter greeter) {
        return "welcome, " + greeter.greet("ada");
    }

    @Test
    void failover_retriesANetworkError_onTheOtherFake() {
        FakeProvider<Greeter> a = FakeProvider.of(Greeter.class, "a").failingWith(Reply.networkError());
        FakeProvider<Greeter> b = FakeProvider.of(Greeter.class, "b").answering("hi from b");
        Greeter greeter = weft.refer(Greeter.class, FakeProviders.invokers(List.of(a, b)),
                "cluster=failover&retries=1&loadbalance=roundrobin");

        assertThat(List.of(welcome(greeter), welcome(greeter))).containsOnly("welcome, hi from b");
        assertThat(b.calls()).isEqualTo(2);
        assertThat(a.calls()).as("round robin tried a, and failover went on to b").isPositive();
    }

    @Test
    void mockFail_answersWhenEveryFakeFails() {
        List<FakeProvider<Greeter>> down = FakeProviders.named(Greeter.class, "a", "b");
        down.forEach(fake -> fake.failingWith(Reply.timeout()));
        Greeter greeter = weft.refer(Greeter.class, FakeProviders.invokers(down), "retries=1&mock=fail:return degraded");

        assertThat(welcome(greeter)).isEqualTo("welcome, degraded");
        assertThat(FakeProviders.totalCalls(down)).isEqualTo(2);
    }

    @Test
    void release_leavesTheGivenFakesToTheCaller_andIdenticalRefersShareTheProxy() {
        FakeProvider<Greeter> a = FakeProvider.of(Greeter.class, "a");
        List<Invoker<Greeter>> invokers = FakeProviders.invokers(List.of(a));
        Greeter first = weft.refer(Greeter.class, invokers, "timeout=500");

        assertThat(weft.refer(Greeter.class, invokers, "timeout=500")).isSameAs(first);
        weft.release(first);
        weft.release(first);
        assertThat(a.isAvailable()).isTrue();
        assertThat(a.calls()).isZero();
    }

    @Test
    void givenProviders_withUrlKeyToo_orNone_areRefused() {
        FakeProvider<Greeter> a = FakeProvider.of(Greeter.class, "a");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> weft.refer(Greeter.class, FakeProviders.invokers(List.of(a)), "url=weft://127.0.0.1:20880"))
                .withMessageContaining("not both");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> weft.refer(Greeter.class, List.of(), ""))
                .withMessageContaining("providers []");
    }
}
