package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.offset;

/** InvokerStats as balancers read it: window edges, caps, the failure penalty and the peak-EWMA decay. */
class InvokerStatsWindowTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final long SECOND = TimeUnit.SECONDS.toNanos(1);

    private final FakeTicker ticker = new FakeTicker();
    private final ExtensionDirector director = new ExtensionDirector(InvokerStatsWindowTest.class.getClassLoader(), ticker);
    private final CallStats stats = CallStats.of(director);
    private final FakeProvider<FakeService> provider = FakeProvider.named("a");

    @AfterEach
    void close() {
        director.close();
    }

    private InvokerStats timed() {
        InvokerStats counters = stats.get(provider);
        counters.timeLatency();
        return counters;
    }

    private void call(InvokerStats counters, long latency, boolean success) {
        long started = counters.startCall();
        ticker.advance(latency, TimeUnit.NANOSECONDS);
        counters.endCall(started, success);
    }

    @Test
    void untimed_callsCountInFlightOnly_andRecordNoSample() {
        InvokerStats counters = stats.get(provider);
        assertThat(counters.isLatencyTimed()).isFalse();
        long started = counters.startCall();
        assertThat(started).isEqualTo(InvokerStats.UNTIMED);
        assertThat(counters.inFlight()).isEqualTo(1);
        ticker.advance(5, TimeUnit.MILLISECONDS);
        counters.endCall(started, true);
        assertThat(counters.inFlight()).isZero();
        assertThat(counters.recentSuccesses(ticker.read())).isZero();
        assertThat(counters.lastSampleNanos()).isEqualTo(Long.MIN_VALUE);
        assertThat((long) counters.peakEwmaNanos(ticker.read(), InvokerStats.EWMA_DECAY_NANOS)).isEqualTo(InvokerStats.NO_SAMPLES);
        assertThat(counters.expectedLatencyNanos(ticker.read())).isEqualTo(InvokerStats.NO_SAMPLES);
    }

    @Test
    void timeLatency_isIdempotent_andStartCallReturnsTheClock() {
        InvokerStats counters = timed();
        counters.timeLatency();
        assertThat(counters.isLatencyTimed()).isTrue();
        ticker.set(42 * MS);
        assertThat(counters.startCall()).isEqualTo(42 * MS);
    }

    @Test
    void aCallStartedWhenTheClockReadsLikeUntimed_isStillTimed() {
        InvokerStats counters = timed();
        ticker.set(Long.MIN_VALUE);
        long started = counters.startCall();
        assertThat(started).isNotEqualTo(InvokerStats.UNTIMED);
        ticker.advance(3, TimeUnit.MILLISECONDS);
        counters.endCall(started, true);
        assertThat(counters.recentSuccesses(ticker.read())).isEqualTo(1);
    }

    @Test
    void successesAndFailures_countInTheWindow_separately() {
        InvokerStats counters = timed();
        ticker.set(100 * SECOND);
        call(counters, 2 * MS, true);
        call(counters, 4 * MS, true);
        call(counters, MS, false);
        long now = ticker.read();
        assertThat(counters.recentSuccesses(now)).isEqualTo(2);
        assertThat(counters.recentFailures(now)).isEqualTo(1);
        assertThat(counters.recentFailures(ticker.read())).isEqualTo(1);
        // average 3 ms over a 2/3 success rate
        assertThat(counters.expectedLatencyNanos(now)).isEqualTo(4_500_000L);
        assertThat(counters.lastSampleNanos()).isEqualTo(now);
    }

    @Test
    void window_isTheBucketOfTheLastSampleAndThePreviousOne_readAsEmptyABucketLater() {
        InvokerStats counters = timed();
        ticker.set(100 * SECOND - MS);
        call(counters, MS / 2, true);           // ends in bucket 9 (90-100 s)
        assertThat(counters.recentSuccesses(100 * SECOND)).isEqualTo(1);          // bucket 10: previous is 9
        assertThat(counters.recentSuccesses(110 * SECOND - 1)).isEqualTo(1);
        assertThat(counters.recentSuccesses(110 * SECOND)).isZero();                // bucket 11: 9 is gone
        assertThat(counters.expectedLatencyNanos(110 * SECOND)).isEqualTo(InvokerStats.NO_SAMPLES);
    }

    @Test
    void aSampleInTheNextBucket_addsThePreviousBucketsCounts_andLatency() {
        InvokerStats counters = timed();
        ticker.set(95 * SECOND);                // bucket 9 (90-100 s)
        call(counters, 2 * MS, true);
        call(counters, MS, false);
        ticker.set(105 * SECOND);               // bucket 10: bucket 9 is the previous one
        call(counters, 4 * MS, true);
        long now = ticker.read();
        assertThat(counters.recentSuccesses(now)).isEqualTo(2);
        assertThat(counters.recentFailures(now)).isEqualTo(1);
        // average 3 ms over a 2/3 success rate
        assertThat(counters.expectedLatencyNanos(now)).isEqualTo(4_500_000L);
        assertThat(counters.recentFailures(120 * SECOND - 1)).isEqualTo(1);
        assertThat(counters.recentFailures(120 * SECOND)).isZero();     // bucket 12: 10 is the previous, 9 is gone
    }

    @Test
    void aBucketIsReplaced_notAddedTo_whenItsSlotComesRoundAgain() {
        InvokerStats counters = timed();
        ticker.set(100 * SECOND);
        call(counters, MS, true);
        ticker.set(120 * SECOND);               // same parity as 100 s: the old bucket is replaced
        call(counters, MS, false);
        assertThat(counters.recentSuccesses(ticker.read())).isZero();
        assertThat(counters.recentFailures(ticker.read())).isEqualTo(1);
        assertThat(counters.expectedLatencyNanos(ticker.read())).isEqualTo(InvokerStats.MAX_EXPECTED_NANOS);
    }

    @Test
    void expectedLatency_isCappedAbove_andAtLeastOneNanosecond() {
        InvokerStats counters = timed();
        ticker.set(SECOND);
        long started = counters.startCall();
        counters.endCall(started, true);       // took no time at all
        assertThat(counters.expectedLatencyNanos(ticker.read())).isEqualTo(1);
        call(counters, 1L << 42, true);          // 73 minutes
        ticker.set(SECOND);
        InvokerStats slow = stats.get(FakeProvider.named("slow"));
        slow.timeLatency();
        long s = slow.startCall();
        ticker.advance(1L << 42, TimeUnit.NANOSECONDS);
        slow.endCall(s, true);
        assertThat(slow.expectedLatencyNanos(ticker.read())).isEqualTo(InvokerStats.MAX_EXPECTED_NANOS);
    }

    @Test
    void peakEwma_firstFailure_costsAtLeastOneMillisecond_andEachFurtherFailureDoublesIt() {
        InvokerStats counters = timed();
        ticker.set(SECOND);
        call(counters, 10, false);
        assertThat((long) counters.peakEwmaNanos(ticker.read(), InvokerStats.EWMA_DECAY_NANOS)).isEqualTo(MS);
        call(counters, 10, false);
        assertThat(counters.peakEwmaNanos(ticker.read(), InvokerStats.EWMA_DECAY_NANOS)).isCloseTo(2.0 * MS, offset(1.0));
    }

    @Test
    void peakEwma_jumpsToAPeak_movesTowardsSmallerSamples_andDecaysWhileIdle() {
        InvokerStats counters = timed();
        ticker.set(SECOND);
        call(counters, 10 * MS, true);
        assertThat((long) counters.peakEwmaNanos(ticker.read(), InvokerStats.EWMA_DECAY_NANOS)).isEqualTo(10 * MS);
        call(counters, 50 * MS, true);
        assertThat((long) counters.peakEwmaNanos(ticker.read(), InvokerStats.EWMA_DECAY_NANOS)).isEqualTo(50 * MS);
        ticker.advance(10, TimeUnit.SECONDS);   // one time constant idle, then a fast sample
        call(counters, 0, true);
        double keep = Math.exp(-1);
        double expected = 50.0 * MS * keep + 1 * (1 - keep);
        assertThat((double) (long) counters.peakEwmaNanos(ticker.read(), InvokerStats.EWMA_DECAY_NANOS)).isCloseTo(expected, offset(2.0));
        long last = counters.lastSampleNanos();
        // readers decay with their own time constant: one of them later leaves exp(-1)
        assertThat(counters.peakEwmaNanos(last + SECOND, SECOND)).isCloseTo(expected * keep, offset(2.0));
        assertThat(counters.peakEwmaNanos(last - SECOND, SECOND)).isCloseTo(expected, offset(2.0));
    }

    @Test
    void peakEwma_blendsASmallerSample_inByTheShareTheIdleTimeDecayed() {
        InvokerStats counters = timed();
        ticker.set(SECOND);
        call(counters, 50 * MS, true);
        ticker.advance(10, TimeUnit.SECONDS);
        call(counters, 10 * MS, true);          // ends 10.01 s after the first sample
        double keep = Math.exp(-(10 * SECOND + 10 * MS) / (double) InvokerStats.EWMA_DECAY_NANOS);
        double expected = 50.0 * MS * keep + 10.0 * MS * (1 - keep);  // about 24.7 ms
        assertThat(counters.peakEwmaNanos(ticker.read(), InvokerStats.EWMA_DECAY_NANOS)).isCloseTo(expected, offset(1000.0));
    }

    @Test
    void inFlight_neverReadsBelowZero() {
        InvokerStats counters = stats.get(provider);
        counters.endCall(InvokerStats.UNTIMED, true);
        assertThat(counters.inFlight()).isZero();
        counters.startCall();
        assertThat(counters.inFlight()).isZero();
        counters.startCall();
        assertThat(counters.inFlight()).isEqualTo(1);
        assertThat(counters.toString()).contains("inFlight=1", "latencyTimed=false");
    }

    @Test
    void aViewSharesTheStatisticsOfTheInvokerItShows() {
        InvokerView<FakeService> view = new InvokerView<>() {
            @Override
            public Invoker<FakeService> underlying() {
                return provider;
            }

            @Override
            public Class<FakeService> getInterface() {
                return FakeService.class;
            }

            @Override
            public Result invoke(Invocation invocation) {
                return provider.invoke(invocation);
            }

            @Override
            public URL getUrl() {
                return provider.getUrl().addParameter("weight", "5");
            }

            @Override
            public boolean isAvailable() {
                return true;
            }

            @Override
            public void destroy() {
            }
        };
        assertThat(stats.get(view)).isSameAs(stats.get(provider));
        assertThat(stats.toString()).isEqualTo("CallStats[1 invokers]");
    }

    @Test
    void currentTimeMillis_countsFromTheTickerReadingWhenTheStatisticsWereCreated() {
        FakeTicker running = new FakeTicker();
        running.set(TimeUnit.HOURS.toNanos(5));      // a real ticker reads an arbitrary origin
        try (ExtensionDirector late = new ExtensionDirector(InvokerStatsWindowTest.class.getClassLoader(), running)) {
            long before = System.currentTimeMillis();
            CallStats lateStats = CallStats.of(late);
            long after = System.currentTimeMillis();
            assertThat(lateStats.currentTimeMillis()).isBetween(before, after);
            running.advance(1500, TimeUnit.MILLISECONDS);
            assertThat(lateStats.currentTimeMillis()).isBetween(before + 1500, after + 1500);
        }
    }

    @Test
    void currentTimeMillis_movesWithTheTicker() {
        long before = stats.currentTimeMillis();
        ticker.advance(1500, TimeUnit.MILLISECONDS);
        assertThat(stats.currentTimeMillis() - before).isEqualTo(1500);
        assertThat(stats.ticker()).isSameAs(ticker);
    }
}
