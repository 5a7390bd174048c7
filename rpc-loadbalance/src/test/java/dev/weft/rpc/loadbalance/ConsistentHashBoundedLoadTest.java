package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.FakeTicker;
import dev.weft.rpc.testing.Invocations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** consistenthash: the bounded-load capacity at its boundaries, duplicate addresses, and key checks on any list. */
class ConsistentHashBoundedLoadTest {

    private static final URL CONSUMER = URL.valueOf("consumer://10.1.0.1/" + FakeService.class.getName());

    private final FakeTicker ticker = new FakeTicker();
    private final ExtensionDirector director = new ExtensionDirector(ConsistentHashBoundedLoadTest.class.getClassLoader(), ticker);
    private final CallStats stats = CallStats.of(director);
    private final ConsistentHashLoadBalance balance = new ConsistentHashLoadBalance();
    private final Invocation call = Invocations.of(FakeService.class, "call", "user-42");

    @AfterEach
    void close() {
        director.close();
    }

    private void inFlight(Invoker<?> invoker, int calls) {
        for (int i = 0; i < calls; i++) {
            stats.get(invoker).startCall();
        }
    }

    @Test
    void boundedLoad_theOwnerKeepsItsKey_belowCeilOfFactorTimesTotalPlusOneOverN() {
        FakeProvider<FakeService> a = FakeProvider.named("a");
        FakeProvider<FakeService> b = FakeProvider.named("b");
        List<Invoker<FakeService>> list = List.of(a, b);
        Invoker<FakeService> owner = balance.picker(list, CONSUMER, "call", stats).pick(call);
        Invoker<FakeService> other = owner == a ? b : a;

        // factor 1: one call in flight on the owner gives capacity ceil(1 x 2 / 2) = 1: the key moves on
        Picker<FakeService> tight = balance.picker(list, CONSUMER.addParameter("call.hash.load.factor", "1"), "call", stats);
        assertThat(tight.pick(call)).isSameAs(owner);
        inFlight(owner, 1);
        assertThat(tight.pick(call)).isSameAs(other);
        // factor 1.5: capacity ceil(1.5 x 2 / 2) = 2: the owner keeps it
        Picker<FakeService> loose = balance.picker(list, CONSUMER.addParameter("hash.load.factor", "1.5"), "call", stats);
        assertThat(loose.pick(call)).isSameAs(owner);
        // the other provider busy too: capacity ceil(1 x 4 / 2) = 2, both below it
        inFlight(other, 2);
        assertThat(tight.pick(call)).isSameAs(owner);
        inFlight(owner, 1);
        assertThat(tight.pick(call)).isSameAs(owner);   // 2 of capacity ceil(1 x 5 / 2) = 3
        inFlight(owner, 2);
        assertThat(tight.pick(call)).isSameAs(other);   // 4 of capacity ceil(1 x 7 / 2) = 4
        // without the factor, load never moves a key
        assertThat(balance.picker(list, CONSUMER, "call", stats).pick(call)).isSameAs(owner);
    }

    @Test
    void twoInvokersAtOneAddress_shareItsKeys_theFirstListedServes() {
        FakeProvider<FakeService> first = FakeProvider.named("same");
        FakeProvider<FakeService> second = FakeProvider.named("same");
        Picker<FakeService> picker = balance.picker(List.of(first, second), CONSUMER, "call", stats);
        for (int i = 0; i < 20; i++) {
            assertThat(picker.pick(Invocations.of(FakeService.class, "call", "key-" + i))).isSameAs(first);
        }
    }

    @Test
    void keys_areCheckedWhenThePickerIsBuilt_evenForAnEmptyList() {
        URL bad = CONSUMER.addParameter("call.hash.nodes", "10001");
        assertThatThrownBy(() -> balance.picker(List.<Invoker<FakeService>>of(), bad, "call", stats))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("call.hash.nodes: 10001 (expected: an integer from 1 to 10000) in consumer URL " + bad);
        URL factor = CONSUMER.addParameter("hash.load.factor", "0.99");
        assertThatThrownBy(() -> balance.picker(List.<Invoker<FakeService>>of(), factor, "call", stats))
                .hasMessage("hash.load.factor: 0.99 (expected: a number >= 1.0) in consumer URL " + factor);
        URL one = CONSUMER.addParameter("hash.nodes", "1");
        assertThat(balance.picker(List.of(FakeProvider.named("a"), FakeProvider.named("b")), one, "call", stats).pick(call)).isNotNull();
    }
}
