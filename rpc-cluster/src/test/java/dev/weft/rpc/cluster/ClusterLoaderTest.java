package dev.weft.rpc.cluster;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionLoader;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The strategies as the extension loader sees them: descriptor, {@code cluster=} selection, lifecycle. */
class ClusterLoaderTest {

    private final ExtensionDirector director = new ExtensionDirector(ClusterLoaderTest.class.getClassLoader());
    private final ExtensionLoader<Cluster> loader = director.getExtensionLoader(Cluster.class);
    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");

    @AfterEach
    void closeDirector() {
        director.close();
    }

    @Test
    void descriptor_registersAllEightStrategies_withFailoverAsDefault() {
        assertThat(loader.getSupportedExtensions())
                .containsExactly("available", "broadcast", "failback", "failfast", "failover", "failsafe", "forking", "hedging")
                .hasSize(8);
        assertThat(loader.getDefaultExtensionName()).isEqualTo("failover");
        assertThat(loader.getExtension("failover")).isInstanceOf(FailoverCluster.class);
        assertThat(loader.getExtension("failfast")).isInstanceOf(FailfastCluster.class);
        assertThat(loader.getExtension("failsafe")).isInstanceOf(FailsafeCluster.class);
        assertThat(loader.getExtension("failback")).isInstanceOf(FailbackCluster.class);
        assertThat(loader.getExtension("hedging", false)).isInstanceOf(HedgingCluster.class);
        assertThat(loader.getExtension("forking")).isInstanceOf(ForkingCluster.class);
        assertThat(loader.getExtension("broadcast")).isInstanceOf(BroadcastCluster.class);
        assertThat(loader.getExtension("available")).isInstanceOf(AvailableCluster.class);
    }

    @Test
    void adaptiveCluster_selectsTheStrategyFromTheDirectorysClusterKey() {
        a.answering(Reply.networkError());
        Cluster adaptive = loader.getAdaptiveExtension();

        Invoker<Greeting> failfast = adaptive.join(directory("cluster=failfast&loadbalance=first", a, b));
        assertThatThrownBy(() -> failfast.invoke(hello())).hasMessageStartingWith("Failfast invoke of method hello");

        Invoker<Greeting> failover = adaptive.join(directory("loadbalance=first", a, b));
        assertThat(failover.invoke(hello()).getValue()).as("default failover retried on b").isEqualTo("10.0.0.2");

        Invoker<Greeting> failsafe = adaptive.join(directory("cluster=failsafe&loadbalance=first", a));
        assertThat(failsafe.invoke(hello()).getValue()).isNull();
    }

    @Test
    void balancers_comeFromTheSameDirector_byTheLoadbalanceKey() {
        Cluster failover = loader.getExtension("failover");

        Invoker<Greeting> roundRobin = failover.join(directory("loadbalance=roundrobin", a, b));
        for (int i = 0; i < 10; i++) {
            roundRobin.invoke(hello());
        }
        assertThat(a.calls()).isEqualTo(5);
        assertThat(b.calls()).isEqualTo(5);

        Invoker<Greeting> first = failover.join(directory("loadbalance=first", a, b));
        first.invoke(hello());
        assertThat(a.calls()).as("test balancer from test descriptor").isEqualTo(6);
    }

    @Test
    void aClusterConstructedWithoutDirector_resolvesBalancersThroughTheDefaultDirector() {
        Invoker<Greeting> roundRobin = new FailfastCluster().join(directory("loadbalance=roundrobin", a, b));
        for (int i = 0; i < 4; i++) {
            roundRobin.invoke(hello());
        }
        assertThat(a.calls()).isEqualTo(2);
        assertThat(b.calls()).isEqualTo(2);
    }

    @Test
    void unknownBalancer_surfacesTheLoadersErrorNamingTheAvailableOnes() {
        assertThatThrownBy(() -> loader.getExtension("failover").join(directory("loadbalance=randon", a)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("loadbalance: randon (expected: a LoadBalance extension; No extension 'randon'")
                .hasMessageContaining("random")
                .hasMessageContaining("roundrobin");
    }

    @Test
    void unknownCluster_isAClearErrorFromTheLoader() {
        assertThatThrownBy(() -> loader.getAdaptiveExtension().join(directory("cluster=failovr", a)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("failovr")
                .hasMessageContaining("failover");
    }

    @Test
    void directorClose_stopsFailbackAndForkingThreads() throws InterruptedException {
        long failbackBefore = ThreadCounts.alive("weft-failback-");
        long forkingBefore = ThreadCounts.alive("weft-forking-");
        a.then(Reply.networkError());
        loader.getAdaptiveExtension().join(directory("cluster=failback&failback.period=10000", a)).invoke(hello());
        loader.getAdaptiveExtension().join(directory("cluster=forking&forks=0", a, b)).invoke(hello());
        assertThat(ThreadCounts.alive("weft-failback-")).isGreaterThan(failbackBefore);
        assertThat(ThreadCounts.alive("weft-forking-")).isGreaterThan(forkingBefore);

        director.close();

        assertThat(ThreadCounts.awaitAlive("weft-failback-", failbackBefore)).isEqualTo(failbackBefore);
        assertThat(ThreadCounts.awaitAlive("weft-forking-", forkingBefore)).isEqualTo(forkingBefore);
    }

    @Test
    void joinedThroughTheLoader_theInvokerStillRefusesCallsOnceDestroyed() {
        Invoker<Greeting> invoker = loader.getAdaptiveExtension().join(directory("loadbalance=first", a));
        invoker.destroy();

        assertThatThrownBy(() -> invoker.invoke(hello())).isInstanceOf(RpcException.class).hasMessageContaining("is destroyed");
    }
}
