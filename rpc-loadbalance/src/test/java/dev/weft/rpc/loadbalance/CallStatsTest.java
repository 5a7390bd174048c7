package dev.weft.rpc.loadbalance;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.FakeTicker;
import static dev.weft.rpc.loadbalance.Fixtures.provider;
import static dev.weft.rpc.loadbalance.Fixtures.ticker;
import static dev.weft.rpc.loadbalance.Fixtures.director;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CallStatsTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private final FakeTicker ticker = ticker();
    private final ExtensionDirector director = director(ticker);
    private final CallStats stats = CallStats.of(director);

    private InvokerStats timed() {
        InvokerStats counters = stats.get(provider("x", ""));
        counters.timeLatency();
        return counters;
    }

    private void call(InvokerStats counters, long latency, boolean success) {
        long started = counters.startCall();
        ticker.advance(latency, TimeUnit.NANOSECONDS);
        counters.endCall(started, success);
    }

    @Test
    void of_isOnePerDirector_andGetIsOnePerInvokerIdentity() {
        FakeProvider<FakeService> one = provider("x", "");
        FakeProvider<FakeService> twin = provider("x", "");
        assertThat(CallStats.of(director)).isSameAs(stats);
        assertThat(CallStats.of(director(ticker))).isNotSameAs(stats);
        assertThat(stats.get(one)).isSameAs(stats.get(one)).isNotSameAs(stats.get(twin));
        assertThat(stats.ticker()).isSameAs(ticker);
    }

    @Test
    void getAll_givesEachInvokersStatistics_inListOrder() {
        FakeProvider<FakeService> a = provider("a", "");
        FakeProvider<FakeService> b = provider("b", "");
        stats.get(b).startCall();
        assertThat(stats.getAll(List.of(b, a, b))).containsExactly(stats.get(b), stats.get(a), stats.get(b));
        assertThat(stats.getAll(List.of(b))[0].inFlight()).isEqualTo(1);
        assertThat(stats.getAll(List.of())).isEmpty();
    }

    @Test
    void of_closedDirector_refusesToCreate() {
        ExtensionDirector closed = director(ticker);
        closed.close();
        assertThatThrownBy(() -> CallStats.of(closed)).isInstanceOf(IllegalStateException.class).hasMessageContaining("closed");
    }

    @Test
    void inFlight_isCountedWithoutTiming_neverBelowZero() {
        InvokerStats counters = stats.get(provider("x", ""));
        long started = counters.startCall();
        counters.startCall();
        assertThat(started).isEqualTo(InvokerStats.UNTIMED);
        assertThat(counters.inFlight()).isEqualTo(2);
        counters.endCall(started, true);
        counters.endCall(started, true);
        counters.endCall(started, true);
        assertThat(counters.inFlight()).isZero();
        assertThat(counters.expectedLatencyNanos(ticker.read())).isEqualTo(InvokerStats.NO_SAMPLES);
    }

    @Test
    void timedCalls_giveExpectedLatency_averageOverSuccessRate() {
        InvokerStats counters = timed();
        call(counters, 10 * MS, true);
        call(counters, 30 * MS, true);
        call(counters, MS, false);
        call(counters, MS, false);
        // average 20 ms at a 50 % success rate
        assertThat(counters.expectedLatencyNanos(ticker.read())).isEqualTo(40 * MS);
        assertThat(counters.recentSuccesses(ticker.read())).isEqualTo(2);
        assertThat(counters.recentFailures(ticker.read())).isEqualTo(2);
    }

    @Test
    void window_forgetsSamplesAfterTwoBuckets() {
        InvokerStats counters = timed();
        call(counters, 5 * MS, true);
        ticker.advance(InvokerStats.BUCKET_NANOS, TimeUnit.NANOSECONDS);
        assertThat(counters.expectedLatencyNanos(ticker.read())).as("previous bucket still counts").isEqualTo(5 * MS);
        ticker.advance(InvokerStats.BUCKET_NANOS, TimeUnit.NANOSECONDS);
        assertThat(counters.expectedLatencyNanos(ticker.read())).isEqualTo(InvokerStats.NO_SAMPLES);
    }

    @Test
    void onlyFailures_scoreAsTheCap() {
        InvokerStats counters = timed();
        call(counters, MS, false);
        assertThat(counters.expectedLatencyNanos(ticker.read())).isEqualTo(InvokerStats.MAX_EXPECTED_NANOS);
    }

    @Test
    void peakEwma_jumpsToPeaks_decaysWhenIdle_andFailuresDoubleIt() {
        InvokerStats counters = timed();
        assertThat((long) counters.peakEwmaNanos(ticker.read(), InvokerStats.EWMA_DECAY_NANOS)).isEqualTo(InvokerStats.NO_SAMPLES);
        call(counters, 10 * MS, true);
        assertThat((long) counters.peakEwmaNanos(ticker.read(), InvokerStats.EWMA_DECAY_NANOS)).isEqualTo(10 * MS);
        call(counters, 50 * MS, true);
        assertThat((long) counters.peakEwmaNanos(ticker.read(), InvokerStats.EWMA_DECAY_NANOS)).as("a peak is taken at once").isEqualTo(50 * MS);
        call(counters, MS, false);
        assertThat((long) counters.peakEwmaNanos(ticker.read(), InvokerStats.EWMA_DECAY_NANOS)).isGreaterThanOrEqualTo(99 * MS);
        long now = counters.lastSampleNanos();
        double estimate = counters.peakEwmaNanos(now, TimeUnit.SECONDS.toNanos(1));
        assertThat(counters.peakEwmaNanos(now + TimeUnit.SECONDS.toNanos(1), TimeUnit.SECONDS.toNanos(1)))
                .isCloseTo(estimate / Math.E, org.assertj.core.api.Assertions.within(1.0));
    }

    @Test
    void currentTimeMillis_followsTheDirectorsTicker() {
        long before = stats.currentTimeMillis();
        ticker.advance(1_234, TimeUnit.MILLISECONDS);
        assertThat(stats.currentTimeMillis() - before).isEqualTo(1_234);
    }

    @Test
    void startEndCall_8Threads_loseNoCount() throws Exception {
        InvokerStats counters = timed();
        int threads = 8;
        int perThread = 50_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < perThread; i++) {
                        long started = counters.startCall();
                        counters.endCall(started, i % 10 != 0);
                    }
                    return null;
                }));
            }
            go.countDown();
            for (Future<?> f : futures) {
                f.get();
            }
        } finally {
            pool.shutdownNow();
        }
        assertThat(counters.inFlight()).isZero();
        assertThat(counters.recentSuccesses(ticker.read())).isEqualTo(360_000);
        assertThat(counters.recentFailures(ticker.read())).isEqualTo(40_000);
    }

    @Test
    void statistics_ofInvokersThatLeft_areReclaimed() throws Exception {
        List<WeakReference<Invoker<?>>> invokerRefs = new ArrayList<>();
        List<WeakReference<InvokerStats>> statsRefs = new ArrayList<>();
        for (int generation = 0; generation < 200; generation++) {
            List<Invoker<FakeService>> invokers = Fixtures.plain(10);
            for (LoadBalance balance : List.of(new LeastActiveLoadBalance(), new P2cLoadBalance(), new ConsistentHashLoadBalance())) {
                balance.picker(invokers, Fixtures.CONSUMER, "m", stats).pick(Fixtures.call("m", "k"));
            }
            for (Invoker<FakeService> invoker : invokers) {
                call(stats.get(invoker), MS, true);
                invokerRefs.add(new WeakReference<>(invoker));
                statsRefs.add(new WeakReference<>(stats.get(invoker)));
            }
        }
        for (int attempt = 0; attempt < 50 && (alive(invokerRefs) > 0 || alive(statsRefs) > 0); attempt++) {
            System.gc();
            for (int i = 0; i < 1_000; i++) {
                stats.get(provider("churn", "")); // collected keys are purged on later writes
            }
            Thread.sleep(10);
        }
        assertThat(alive(invokerRefs)).isZero();
        assertThat(alive(statsRefs)).isZero();
    }

    private static int alive(List<? extends WeakReference<?>> refs) {
        int alive = 0;
        for (WeakReference<?> ref : refs) {
            alive += ref.get() != null ? 1 : 0;
        }
        return alive;
    }
}
