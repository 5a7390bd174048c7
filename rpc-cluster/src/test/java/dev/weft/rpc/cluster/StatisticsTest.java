package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.loadbalance.InvokerStats;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.weft.rpc.cluster.FakeInvoker.bizError;
import static dev.weft.rpc.cluster.FakeInvoker.blockUntil;
import static dev.weft.rpc.cluster.FakeInvoker.networkError;
import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cluster records call statistics around every provider call, so stats-driven balancers work unconfigured. */
class StatisticsTest {

    private final FakeInvoker a = FakeInvoker.named("10.0.0.1");
    private final FakeInvoker b = FakeInvoker.named("10.0.0.2");
    private final CountDownLatch release = new CountDownLatch(1);
    private final ExecutorService caller = Executors.newSingleThreadExecutor();
    private final ExtensionDirector director = new ExtensionDirector(StatisticsTest.class.getClassLoader());

    @AfterEach
    void tearDown() {
        release.countDown();
        caller.shutdownNow();
        director.close();
    }

    @Test
    void inFlight_risesDuringTheCall_andFallsAfter_evenWhenTheCallFails() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        a.then(blockUntil(entered, release), networkError(), bizError());
        Invoker<Greeting> invoker = first(new FailfastCluster()).join(directory("", a));

        Future<?> call = caller.submit(() -> invoker.invoke(hello()));
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(InvokerStats.of(a).inFlight()).isEqualTo(1);
        release.countDown();
        call.get(5, TimeUnit.SECONDS);
        assertThat(InvokerStats.of(a).inFlight()).isZero();

        assertThatThrownBy(() -> invoker.invoke(hello())).hasMessageContaining("connection refused");
        assertThatThrownBy(() -> invoker.invoke(hello())).hasMessageContaining("insufficient funds");
        assertThat(InvokerStats.of(a).inFlight()).isZero();
    }

    @Test
    void leastactive_sendsNewCallsAwayFromAProviderWithCallsInFlight() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        a.then(blockUntil(entered, release));
        DynamicDirectory<Greeting> directory = directory("loadbalance=leastactive", a);
        Invoker<Greeting> invoker = director.getExtensionLoader(Cluster.class).getExtension("failover").join(directory);

        Future<?> stuck = caller.submit(() -> invoker.invoke(hello()));
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
        directory.setInvokers(List.of(a, b));
        for (int i = 0; i < 100; i++) {
            assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.2");
        }

        assertThat(a.calls()).isEqualTo(1);
        assertThat(b.calls()).isEqualTo(100);
        release.countDown();
        stuck.get(5, TimeUnit.SECONDS);
    }
}
