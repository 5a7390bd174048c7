package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.ToLongFunction;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class InvokerStatsTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private final FakeTime time = new FakeTime();

    /** Statistics on the fake clock that count every clock read in {@code reads}. */
    private InvokerStats countingClockReads(AtomicInteger reads) {
        return InvokerStats.of(FakeInvoker.of("x", 1, ""), () -> {
            reads.incrementAndGet();
            return time.nanoTime();
        });
    }

    private InvokerStats fresh() {
        return InvokerStats.of(FakeInvoker.of("x", 1, ""), time::nanoTime);
    }

    @Test
    void of_returnsTheSameInstanceForTheSameInvoker_andDistinctForEqualLookingInvokers() {
        FakeInvoker one = FakeInvoker.of("x", 1, "");
        FakeInvoker twin = FakeInvoker.of("x", 1, "");
        assertThat(InvokerStats.of(one)).isSameAs(InvokerStats.of(one)).isNotSameAs(InvokerStats.of(twin));
    }

    @Test
    void beginEnd_trackInFlight_neverBelowZero() {
        InvokerStats stats = fresh();
        stats.begin();
        stats.begin();
        assertThat(stats.inFlight()).isEqualTo(2);
        stats.end(MS, true);
        stats.end(MS, true);
        stats.end(MS, true);
        assertThat(stats.inFlight()).isZero();
    }

    @Test
    void startEndCall_untracked_recordNothing_noAtomicNoClock() {
        AtomicInteger clockReads = new AtomicInteger();
        InvokerStats stats = countingClockReads(clockReads);
        long started = stats.startCall();
        assertThat(started).isEqualTo(InvokerStats.UNCOUNTED);
        assertThat(stats.inFlightCount()).as("nothing counted while nothing reads it").isZero();
        stats.endCall(started, true);
        stats.endCall(stats.startCall(), false);

        assertThat(stats.inFlightCount()).isZero();
        assertThat(clockReads).hasValue(0);
        assertThat(stats.isInFlightTracked()).isFalse();
        assertThat(stats.isLatencyTracked()).isFalse();
        assertThat(stats.sampleEpoch()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void startEndCall_inFlightTracked_countInFlightOnly_withoutReadingTheClock() {
        AtomicInteger clockReads = new AtomicInteger();
        InvokerStats stats = countingClockReads(clockReads);
        stats.trackInFlight();
        stats.trackInFlight();
        long started = stats.startCall();
        assertThat(started).isEqualTo(InvokerStats.UNTIMED);
        assertThat(stats.inFlight()).isEqualTo(1);
        time.advanceNanos(5 * MS);
        stats.endCall(started, true);
        stats.endCall(stats.startCall(), false);

        assertThat(stats.inFlight()).isZero();
        assertThat(clockReads).hasValue(0);
        assertThat(stats.isInFlightTracked()).isTrue();
        assertThat(stats.isLatencyTracked()).isFalse();
        assertThat(stats.expectedLatencyNanos(Math.floorDiv(time.nanoTime(), InvokerStats.BUCKET_NANOS)))
                .isEqualTo(InvokerStats.NO_SAMPLES);
        assertThat(stats.sampleEpoch()).isEqualTo(Long.MIN_VALUE);
    }

    @Test
    void inFlight_firstReadTurnsCountingOn_callsStartedBeforeEndWithoutUnbalancingIt() {
        InvokerStats stats = fresh();
        long before = stats.startCall();
        assertThat(stats.inFlight()).as("a call started before anything read it is not counted").isZero();
        assertThat(stats.isInFlightTracked()).isTrue();
        long after = stats.startCall();
        assertThat(stats.inFlight()).isEqualTo(1);
        stats.endCall(before, true);
        assertThat(stats.inFlight()).as("the uncounted call does not count out").isEqualTo(1);
        stats.endCall(after, true);
        assertThat(stats.inFlight()).isZero();
    }

    @Test
    void startCall_neverAnswersAClockReadingThatLooksLikeASentinel() {
        long[] clock = {InvokerStats.UNTIMED};
        InvokerStats stats = InvokerStats.of(FakeInvoker.of("x", 1, ""), () -> clock[0]);
        stats.trackLatency();
        long started = stats.startCall();
        assertThat(started).isNotIn(InvokerStats.UNTIMED, InvokerStats.UNCOUNTED);
        assertThat(stats.inFlight()).isEqualTo(1);
        clock[0] = InvokerStats.UNCOUNTED + 5;
        stats.endCall(started, true);
        assertThat(stats.inFlight()).isZero();
        assertThat(stats.windowSuccesses()).isEqualTo(1);
    }

    @Test
    void startEndCall_tracked_readTheClockOncePerSide_andRecordLatencyFailuresAndEwma() {
        AtomicInteger clockReads = new AtomicInteger();
        InvokerStats stats = countingClockReads(clockReads);
        stats.trackLatency();
        stats.trackLatency();
        assertThat(stats.isLatencyTracked()).isTrue();

        long started = stats.startCall();
        assertThat(started).isEqualTo(time.nanoTime());
        time.advanceNanos(10 * MS);
        stats.endCall(started, true);
        long failed = stats.startCall();
        time.advanceNanos(30 * MS);
        stats.endCall(failed, false);
        assertThat(clockReads).as("one reading at the start and one at the end of each call").hasValue(4);

        assertThat(stats.inFlight()).isZero();
        assertThat(stats.windowSuccesses()).isEqualTo(1);
        assertThat(stats.windowFailures()).isEqualTo(1);
        assertThat(stats.windowAverageLatencyNanos()).isEqualTo(10 * MS);
        // the failure raised the estimate to at least its own 30 ms (peak)
        assertThat(stats.peakEwmaNanos()).isEqualTo(30 * MS);
    }

    @Test
    void endCall_ofACallStartedUntracked_staysUntimed_evenIfTrackingStartedMeanwhile() {
        InvokerStats stats = fresh();
        long started = stats.startCall();
        stats.trackLatency();
        time.advanceNanos(MS);
        stats.endCall(started, true);
        assertThat(stats.inFlight()).isZero();
        assertThat(stats.windowSuccesses()).isZero();
        assertThat(stats.peakEwmaNanos()).isEqualTo(-1);

        long next = stats.startCall();
        time.advanceNanos(2 * MS);
        stats.endCall(next, true);
        assertThat(stats.windowAverageLatencyNanos()).isEqualTo(2 * MS);
    }

    @Test
    void publicLatencyReads_turnLatencyTrackingOn_whileInFlightReadsTurnOnlyCountingOn() {
        InvokerStats stats = fresh();
        stats.inFlight();
        assertThat(stats.toString()).contains("inFlightTracked=true").contains("latencyTracked=false");
        assertThat(stats.isLatencyTracked()).isFalse();
        assertThat(stats.peakEwmaNanos()).isEqualTo(-1);
        assertThat(stats.isLatencyTracked()).isTrue();
        assertThat(stats.isInFlightTracked()).as("latency implies in-flight").isTrue();
        for (ToLongFunction<InvokerStats> read : List.<ToLongFunction<InvokerStats>>of(
                InvokerStats::windowSuccesses, InvokerStats::windowFailures, InvokerStats::windowAverageLatencyNanos)) {
            InvokerStats other = fresh();
            read.applyAsLong(other);
            assertThat(other.isLatencyTracked()).isTrue();
        }
    }

    @Test
    void end_withCallerMeasuredElapsed_alwaysRecords_evenUntracked() {
        InvokerStats stats = fresh();
        stats.begin();
        stats.end(7 * MS, true);
        assertThat(stats.sampleEpoch()).isEqualTo(Math.floorDiv(time.nanoTime(), InvokerStats.BUCKET_NANOS));
        assertThat(stats.windowAverageLatencyNanos()).isEqualTo(7 * MS);
    }

    @Test
    void window_averagesSuccessfulLatency_countsFailures_andForgetsAfterTwoBuckets() {
        InvokerStats stats = fresh();
        record(stats, 10 * MS, true);
        record(stats, 30 * MS, true);
        record(stats, 500 * MS, false);
        assertThat(stats.windowAverageLatencyNanos()).isEqualTo(20 * MS);
        assertThat(stats.windowSuccesses()).isEqualTo(2);
        assertThat(stats.windowFailures()).isEqualTo(1);
        long epoch = Math.floorDiv(time.nanoTime(), InvokerStats.BUCKET_NANOS);
        // 20 ms average at a 2/3 success rate: 30 ms expected per success
        assertThat(stats.expectedLatencyNanos(epoch)).isEqualTo(30 * MS);

        time.advanceMillis(TimeUnit.SECONDS.toMillis(InvokerStats.BUCKET_SECONDS));
        assertThat(stats.windowSuccesses()).as("previous bucket still counts").isEqualTo(2);
        time.advanceMillis(TimeUnit.SECONDS.toMillis(InvokerStats.BUCKET_SECONDS));
        assertThat(stats.windowSuccesses()).isZero();
        assertThat(stats.windowAverageLatencyNanos()).isEqualTo(-1);
        assertThat(stats.expectedLatencyNanos(Math.floorDiv(time.nanoTime(), InvokerStats.BUCKET_NANOS))).isEqualTo(InvokerStats.NO_SAMPLES);
    }

    @Test
    void window_onlyFailures_scoresAsTheMaximum() {
        InvokerStats stats = fresh();
        record(stats, MS, false);
        long epoch = Math.floorDiv(time.nanoTime(), InvokerStats.BUCKET_NANOS);
        assertThat(stats.expectedLatencyNanos(epoch)).isEqualTo(InvokerStats.MAX_EXPECTED_NANOS);
    }

    @Test
    void peakEwma_jumpsToAPeak_thenDecaysWithTheConfiguredTimeConstant() {
        InvokerStats stats = fresh();
        assertThat(stats.peakEwmaNanos()).isEqualTo(-1);
        record(stats, 10 * MS, true);
        assertThat(stats.peakEwmaNanos()).isEqualTo(10 * MS);
        record(stats, 100 * MS, true);
        assertThat(stats.peakEwmaNanos()).as("peak: a larger sample is taken at once").isEqualTo(100 * MS);

        // read decay: after one time constant (10 s) the estimate is 1/e of its value
        time.advanceMillis(10_000);
        assertThat((double) stats.peakEwmaNanos()).isCloseTo(100 * MS / Math.E, within(1e-3 * MS));

        // a smaller sample ending 10.01 s after the last update: keep * 100 + (1 - keep) * 10
        record(stats, 10 * MS, true);
        double keep = Math.exp(-10_010.0 / 10_000);
        double expected = keep * 100 * MS + (1 - keep) * 10 * MS;
        assertThat((double) stats.peakEwmaNanos()).isCloseTo(expected, within(1e-3 * MS));

        // a smaller decay constant forgets faster
        stats.ewmaDecayNanos(TimeUnit.SECONDS.toNanos(1));
        time.advanceMillis(1_000);
        assertThat((double) stats.peakEwmaNanos()).isCloseTo(expected / Math.E, within(1e-3 * MS));
    }

    @Test
    void keep_matchesExp_onBothSidesOfTheShortcut() {
        for (long dt : new long[] {0, 1, 1_000, 999_999, 1_000_001, 5_000_000_000L, 30_000_000_000L}) {
            assertThat(InvokerStats.keep(dt, 10_000_000_000L)).isCloseTo(Math.exp(-dt / 1e10), within(1e-12));
        }
    }

    @Test
    void peakEwma_failureRaisesTheEstimate_toAtLeastTwiceItsValue() {
        InvokerStats stats = fresh();
        record(stats, 4 * MS, true);
        record(stats, MS / 10, false);
        assertThat(stats.peakEwmaNanos()).isEqualTo(8 * MS);
        InvokerStats fastFailing = fresh();
        record(fastFailing, 1000, false);
        assertThat(fastFailing.peakEwmaNanos()).isEqualTo(MS);
    }

    @Test
    void concurrentRecording_8ThreadsX100k_losesNoCount() throws Exception {
        InvokerStats stats = fresh();
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            CountDownLatch go = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < 8; t++) {
                futures.add(pool.submit(() -> {
                    go.await();
                    for (int i = 0; i < 100_000; i++) {
                        stats.begin();
                        stats.end(MS, i % 10 != 0);
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
        assertThat(stats.inFlight()).isZero();
        assertThat(stats.windowSuccesses()).isEqualTo(720_000);
        assertThat(stats.windowFailures()).isEqualTo(80_000);
        assertThat(stats.windowAverageLatencyNanos()).isEqualTo(MS);
    }

    @Test
    void statistics_ofInvokersThatLeft_areReclaimed_acrossManyGenerations() throws Exception {
        List<WeakReference<Invoker<?>>> invokerRefs = new ArrayList<>();
        List<WeakReference<InvokerStats>> statsRefs = new ArrayList<>();
        LoadBalance[] balancers = {new RandomLoadBalance(), new RoundRobinLoadBalance(), new LeastActiveLoadBalance(),
            new ShortestResponseLoadBalance(), new ConsistentHashLoadBalance(), new P2cLoadBalance()};
        int generations = 2_000;
        int maxRegistered = 0;
        for (int generation = 0; generation < generations; generation++) {
            List<Invoker<Object>> invokers = Fixtures.plain(10);
            for (Invoker<Object> invoker : invokers) {
                InvokerStats stats = InvokerStats.of(invoker);
                stats.begin();
                stats.end(MS, true);
                if (generation < 100) {
                    invokerRefs.add(new WeakReference<>(invoker));
                    statsRefs.add(new WeakReference<>(stats));
                }
            }
            for (LoadBalance balance : balancers) {
                balance.select(invokers, Fixtures.CONSUMER, Fixtures.call("m", "key" + generation));
            }
            if (generation % 200 == 199) {
                System.gc();
                maxRegistered = Math.max(maxRegistered, InvokerStats.registeredCount());
            }
        }
        awaitCollected(invokerRefs);
        awaitCollected(statsRefs);
        // 20,000 invokers went through the registry; it never held more than a few generations of them
        assertThat(maxRegistered).isLessThan(5_000);
        assertThat(alive(invokerRefs)).isZero();
        assertThat(alive(statsRefs)).isZero();
    }

    private static void awaitCollected(List<? extends WeakReference<?>> refs) throws InterruptedException {
        for (int attempt = 0; attempt < 50 && alive(refs) > 0; attempt++) {
            System.gc();
            // registry and cache entries of collected keys are purged on later writes
            for (int i = 0; i < 1_000; i++) {
                InvokerStats.of(FakeInvoker.of("churn", 1, ""));
            }
            Thread.sleep(10);
        }
    }

    private static int alive(List<? extends WeakReference<?>> refs) {
        int alive = 0;
        for (WeakReference<?> ref : refs) {
            alive += ref.get() == null ? 0 : 1;
        }
        return alive;
    }

    private void record(InvokerStats stats, long elapsed, boolean success) {
        stats.begin();
        time.advanceNanos(elapsed);
        stats.end(elapsed, success);
    }
}
