package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.loadbalance.InvokerStats;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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
    void inFlight_onceSomethingReadsIt_risesDuringTheCall_andFallsAfter_evenWhenTheCallFails() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        a.then(blockUntil(entered, release), networkError(), bizError());
        Invoker<Greeting> invoker = first(new FailfastCluster()).join(directory("", a));
        assertThat(InvokerStats.of(a).inFlight()).as("the first read turns counting on").isZero();

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
        DynamicDirectory<Greeting> directory = directory("loadbalance=leastactive", a, b);
        Invoker<Greeting> invoker = director.getExtensionLoader(Cluster.class).getExtension("failover").join(directory);

        // calls go to a or b (tied) until one lands on a and stays there
        Future<?> stuck = caller.submit(() -> {
            while (a.calls() == 0) {
                invoker.invoke(hello());
            }
        });
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
        int bBefore = b.calls();
        for (int i = 0; i < 100; i++) {
            assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.2");
        }

        assertThat(a.calls()).isEqualTo(1);
        assertThat(b.calls()).isEqualTo(bBefore + 100);
        release.countDown();
        stuck.get(5, TimeUnit.SECONDS);
        assertThat(InvokerStats.of(a).inFlight()).isZero();
    }

    @Test
    void random_recordsNothing_noCountNoClock_becauseNothingReadsIt() {
        DynamicDirectory<Greeting> directory = directory("loadbalance=random", a, b);
        Invoker<Greeting> invoker = director.getExtensionLoader(Cluster.class).getExtension("failover").join(directory);
        for (int i = 0; i < 50; i++) {
            invoker.invoke(hello());
        }
        assertThat(a.calls() + b.calls()).isEqualTo(50);
        for (FakeInvoker provider : List.of(a, b)) {
            InvokerStats stats = InvokerStats.of(provider);
            assertThat(stats.isInFlightTracked()).as("nothing reads calls in flight under random").isFalse();
            assertThat(stats.isLatencyTracked()).as("nothing reads latency under random").isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"shortestresponse", "p2c"})
    void latencyReadingBalancers_getLatencyRecordedByTheCluster_andAvoidASlowProvider(String balancer) {
        a.always((self, invocation) -> {
            sleepMillis(20);
            return RpcResult.of(self.host());
        });
        DynamicDirectory<Greeting> directory = directory("loadbalance=" + balancer, a, b);
        Invoker<Greeting> invoker = director.getExtensionLoader(Cluster.class).getExtension("failover").join(directory);
        int warmUp = 0;
        // until both have history (p2c breaks ties between two invokers without history at random)
        while (warmUp < 60 && (a.calls() == 0 || b.calls() == 0)) {
            invoker.invoke(hello());
            warmUp++;
        }
        assertThat(InvokerStats.of(a).isLatencyTracked()).isTrue();
        assertThat(InvokerStats.of(b).isLatencyTracked()).isTrue();
        assertThat(InvokerStats.of(a).windowSuccesses()).isEqualTo(a.calls()).isPositive();
        assertThat(InvokerStats.of(b).windowSuccesses()).isEqualTo(b.calls()).isPositive();

        int slowBefore = a.calls();
        for (int i = 0; i < 30; i++) {
            assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.2");
        }
        assertThat(a.calls()).isEqualTo(slowBefore);
        assertThat(InvokerStats.of(a).windowAverageLatencyNanos()).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
        assertThat(InvokerStats.of(b).windowAverageLatencyNanos()).isLessThan(TimeUnit.MILLISECONDS.toNanos(20));
    }

    private static void sleepMillis(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
