package dev.weft.rpc.cluster;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import dev.weft.rpc.common.RpcException;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.loadbalance.CallStats;
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

import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The cluster records call statistics around every provider call, so stats-driven balancers work unconfigured. */
class StatisticsTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
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
        a.then(TestClusters.blockUntil(entered, release), Reply.networkError(), Reply.rpcFailure(RpcException.BIZ_EXCEPTION));
        Invoker<Greeting> invoker = director.getExtensionLoader(Cluster.class).getExtension("failfast").join(directory("", a));
        assertThat(stats(a).inFlight()).isZero();

        Future<?> call = caller.submit(() -> invoker.invoke(hello()));
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(stats(a).inFlight()).isEqualTo(1);
        release.countDown();
        call.get(5, TimeUnit.SECONDS);
        assertThat(stats(a).inFlight()).isZero();

        assertThatThrownBy(() -> invoker.invoke(hello())).hasMessageContaining("scripted network failure");
        assertThatThrownBy(() -> invoker.invoke(hello())).hasMessageContaining("scripted business failure");
        assertThat(stats(a).inFlight()).isZero();
    }

    @Test
    void leastactive_sendsNewCallsAwayFromAProviderWithCallsInFlight() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        a.then(TestClusters.blockUntil(entered, release));
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
        assertThat(stats(a).inFlight()).isZero();
    }

    @Test
    void random_countsCallsInFlight_fromTheFirstCall_butTimesNothing() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        a.then(TestClusters.blockUntil(entered, release));
        DynamicDirectory<Greeting> directory = directory("loadbalance=random", a);
        Invoker<Greeting> invoker = director.getExtensionLoader(Cluster.class).getExtension("failover").join(directory);
        Future<?> call = caller.submit(() -> invoker.invoke(hello()));
        assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(stats(a).inFlight()).as("one provider, random balancer: still counted").isEqualTo(1);
        assertThat(stats(a).isLatencyTimed()).isFalse();
        release.countDown();
        call.get(5, TimeUnit.SECONDS);
        assertThat(stats(a).inFlight()).isZero();
    }

    @Test
    void leastactive_chosenBySetUrl_seesCallsStartedEarlier_underAnotherBalancer_withOneProvider() throws Exception {
        CountDownLatch entered = new CountDownLatch(3);
        a.then(TestClusters.blockUntil(entered, release), TestClusters.blockUntil(entered, release), TestClusters.blockUntil(entered, release));
        DynamicDirectory<Greeting> directory = directory("loadbalance=random", a);
        Invoker<Greeting> invoker = director.getExtensionLoader(Cluster.class).getExtension("failover").join(directory);
        ExecutorService three = Executors.newFixedThreadPool(3);
        try {
            List<Future<?>> stuck = new java.util.ArrayList<>();
            for (int i = 0; i < 3; i++) {
                stuck.add(three.submit(() -> invoker.invoke(hello())));
            }
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            directory.setState(directory.getUrl().addParameter("loadbalance", "leastactive"), List.of(a, b));
            for (int i = 0; i < 50; i++) {
                assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.2");
            }
            release.countDown();
            for (Future<?> call : stuck) {
                call.get(5, TimeUnit.SECONDS);
            }
        } finally {
            three.shutdownNow();
        }
        assertThat(stats(a).inFlight()).isZero();
    }

    @Test
    void twoDirectors_neverSeeEachOthersCounts() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        a.then(TestClusters.blockUntil(entered, release));
        try (ExtensionDirector other = new ExtensionDirector(StatisticsTest.class.getClassLoader())) {
            Invoker<Greeting> invoker = director.getExtensionLoader(Cluster.class).getExtension("failover").join(directory("", a));
            Future<?> call = caller.submit(() -> invoker.invoke(hello()));
            assertThat(entered.await(5, TimeUnit.SECONDS)).isTrue();
            assertThat(stats(a).inFlight()).isEqualTo(1);
            assertThat(CallStats.of(other).get(a).inFlight()).isZero();
            release.countDown();
            call.get(5, TimeUnit.SECONDS);
        }
    }

    private InvokerStats stats(Invoker<?> invoker) {
        return CallStats.of(director).get(invoker);
    }

    @ParameterizedTest
    @ValueSource(strings = {"shortestresponse", "p2c"})
    void latencyReadingBalancers_getLatencyRecordedByTheCluster_andAvoidASlowProvider(String balancer) {
        a.answering((invocation, self) -> {
            sleepMillis(20);
            return RpcResult.of(self.name());
        });
        DynamicDirectory<Greeting> directory = directory("loadbalance=" + balancer, a, b);
        Invoker<Greeting> invoker = director.getExtensionLoader(Cluster.class).getExtension("failover").join(directory);
        int warmUp = 0;
        // until both have history (p2c breaks ties between two invokers without history at random)
        while (warmUp < 60 && (a.calls() == 0 || b.calls() == 0)) {
            invoker.invoke(hello());
            warmUp++;
        }
        assertThat(stats(a).isLatencyTimed()).isTrue();
        assertThat(stats(b).isLatencyTimed()).isTrue();
        assertThat(stats(a).recentSuccesses(System.nanoTime())).isEqualTo(a.calls()).isPositive();
        assertThat(stats(b).recentSuccesses(System.nanoTime())).isEqualTo(b.calls()).isPositive();

        int slowBefore = a.calls();
        for (int i = 0; i < 30; i++) {
            assertThat(invoker.invoke(hello()).getValue()).isEqualTo("10.0.0.2");
        }
        assertThat(a.calls()).isEqualTo(slowBefore);
        assertThat(stats(a).expectedLatencyNanos(System.nanoTime())).isGreaterThanOrEqualTo(TimeUnit.MILLISECONDS.toNanos(20));
        assertThat(stats(b).expectedLatencyNanos(System.nanoTime())).isLessThan(TimeUnit.MILLISECONDS.toNanos(20));
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
