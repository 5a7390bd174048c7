package dev.weft.rpc.cluster;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import dev.weft.rpc.common.URL;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import org.junit.jupiter.api.Test;

import java.util.concurrent.atomic.AtomicReference;

import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BroadcastClusterInvokerTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
    private final FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "10.0.0.3");
    private final FakeProvider<Greeting> d = FakeProvider.of(Greeting.class, "10.0.0.4");

    private Invoker<Greeting> join(String parameters) {
        return first(new BroadcastCluster()).join(directory(parameters, a, b, c, d));
    }

    @Test
    void broadcast_callsEveryInvoker_andReturnsTheLastResult() throws Throwable {
        Result result = join("").invoke(hello());

        assertThat(result.recreate()).isEqualTo("10.0.0.4");
        assertThat(new int[] {a.calls(), b.calls(), c.calls(), d.calls()}).containsExactly(1, 1, 1, 1);
    }

    @Test
    void broadcast_destroyedMidway_stopsCallingTheRest_andSaysHowManyWereNotCalled() {
        AtomicReference<Invoker<Greeting>> joined = new AtomicReference<>();
        b.answering((invocation, self) -> {
            joined.get().destroy(); // the consumer shuts down during the broadcast
            return Reply.providerName().reply(invocation, self);
        });
        joined.set(first(new BroadcastCluster()).join(directory("", a, b, c, d)));

        assertThatThrownBy(() -> joined.get().invoke(hello()))
                .isInstanceOf(RpcException.class)
                .hasMessage("Broadcast of method hello of service dev.weft.rpc.cluster.Greeting stopped after 2/4 providers: the cluster"
                        + " invoker was destroyed; 2 providers not called (consumer: consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting)");
        assertThat(new int[] {a.calls(), b.calls(), c.calls(), d.calls()}).containsExactly(1, 1, 0, 0);
    }

    @Test
    void broadcast_byDefault_callsAll_thenThrowsTheLastFailure_keepingItsCode() {
        b.answering(Reply.networkError());
        c.answering(Reply.timeout());

        assertThatThrownBy(() -> join("").invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                .hasMessage("Broadcast of method hello of service dev.weft.rpc.cluster.Greeting failed on 2/4 providers (called 4,"
                        + " broadcast.fail.percent=100, consumer: consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting);"
                        + " last failure on provider 10.0.0.3:20880: RpcException: scripted timeout at fake provider 10.0.0.3 (method hello)");
        assertThat(d.calls()).isEqualTo(1);
    }

    @Test
    void broadcast_stopsEarly_onceTheFailPercentIsReached() {
        a.answering(Reply.networkError());
        b.answering(Reply.networkError());

        assertThatThrownBy(() -> join("broadcast.fail.percent=50").invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNetwork()).isTrue())
                .hasMessageContaining("failed on 2/4 providers (called 2, broadcast.fail.percent=50");
        assertThat(c.calls() + d.calls()).isZero();
    }

    @Test
    void broadcast_zeroPercent_stopsAtTheFirstFailure() {
        b.answering(Reply.networkError());

        assertThatThrownBy(() -> join("broadcast.fail.percent=0").invoke(hello()))
                .hasMessageContaining("failed on 1/4 providers (called 2,");
        assertThat(c.calls()).isZero();
    }

    @Test
    void broadcast_countsAResultCarryingAnException_andReturnsIt_whenItFailedLast() {
        IllegalArgumentException fromService = new IllegalArgumentException("bad name");
        c.answering(Reply.serviceException(fromService));

        Result result = join("").invoke(hello());

        assertThat(result.getException()).isSameAs(fromService);
        assertThat(d.calls()).isEqualTo(1);
    }

    @Test
    void broadcast_throwsABusinessFailureUnchanged() {
        d.answering(Reply.rpcFailure(RpcException.BIZ_EXCEPTION));

        assertThatThrownBy(() -> join("").invoke(hello())).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue())
                .hasMessage("scripted business failure at fake provider 10.0.0.4 (method hello)");
    }

    @Test
    void broadcast_rejectsAFailPercentOutOfRange() {
        assertThatThrownBy(() -> join("broadcast.fail.percent=150"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("broadcast.fail.percent: 150 (expected: an integer from 0 to 100) in consumer URL"
                        + " consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting?broadcast.fail.percent=150");
        assertThat(a.calls()).isZero();
    }
}
