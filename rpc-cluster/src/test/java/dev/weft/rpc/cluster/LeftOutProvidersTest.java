package dev.weft.rpc.cluster;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.testing.Calls;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A provider whose URL carries a bad value ({@code weight=-5}) is left out of the state (the
 * balancers never pick it); the strategies that call every provider without a balancer leave it
 * out too (issue #29).
 */
class LeftOutProvidersTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> bad = FakeProvider.of(Greeting.class, "10.0.0.2").parameter("weight", "-5");
    private final FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "10.0.0.3");
    private final ForkingCluster forking = first(new ForkingCluster(4));

    @AfterEach
    void close() {
        forking.close();
    }

    @Test
    void forking_withForksCoveringTheProviders_neverCallsOneLeftOut() {
        // every fork fails, so the call waits for all of them: a fork on the bad provider would be counted
        a.answering(Reply.networkError());
        c.answering(Reply.networkError());
        assertThatThrownBy(() -> Calls.invoke(forking.join(directory("forks=3&timeout=5000", a, bad, c)), hello()))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("failed on all 2 providers [10.0.0.1:20880, 10.0.0.3:20880]");
        assertThat(bad.calls()).isZero();
        assertThat(a.calls()).isEqualTo(1);
        assertThat(c.calls()).isEqualTo(1);
    }

    @Test
    void broadcast_neverCallsAProviderLeftOut() {
        Calls.invoke(first(new BroadcastCluster()).join(directory("", a, bad, c)), hello());
        assertThat(bad.calls()).isZero();
        assertThat(a.calls()).isEqualTo(1);
        assertThat(c.calls()).isEqualTo(1);
    }
}
