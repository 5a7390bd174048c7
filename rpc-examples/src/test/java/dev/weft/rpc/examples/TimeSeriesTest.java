package dev.weft.rpc.examples;

import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class TimeSeriesTest {

    private final FakeTicker ticker = new FakeTicker();

    @Test
    void seconds_countAnswersPerProvider_mockedAndFailed_perSecond() {
        TimeSeries series = new TimeSeries(ticker, List.of("a", "b"));
        series.record(CallTally.Outcome.OK, "a", 1_000_000);
        ticker.advance(Duration.ofMillis(999));
        series.record(CallTally.Outcome.OK, "b", 3_000_000);
        ticker.advance(Duration.ofMillis(1));
        series.record(CallTally.Outcome.MOCKED, null, 2_000_000);
        series.record(CallTally.Outcome.FAILED, null, 9_000_000);
        ticker.advance(Duration.ofMillis(1400));
        series.record(CallTally.Outcome.OK, "a", 5_000_000);

        List<TimeSeries.Point> seconds = series.seconds(2500);

        assertThat(seconds).hasSize(3);
        assertThat(seconds.get(0).answered()).containsExactly(java.util.Map.entry("a", 1L), java.util.Map.entry("b", 1L));
        assertThat(seconds.get(0).p99Nanos()).isEqualTo(3_000_000);
        assertThat(seconds.get(1).answered().values()).containsExactly(0L, 0L);
        assertThat(seconds.get(1).mocked()).isEqualTo(1);
        assertThat(seconds.get(1).failed()).isEqualTo(1);
        assertThat(seconds.get(1).p50Nanos()).isEqualTo(2_000_000);
        assertThat(seconds.get(1).p99Nanos()).isEqualTo(9_000_000);
        assertThat(seconds.get(2).answered("a")).isEqualTo(1);
        assertThat(seconds.get(2).fromMillis()).isEqualTo(2000);
        assertThat(seconds.get(2).toMillis()).isEqualTo(2500);
        assertThat(seconds.get(2).perSecond(1)).isEqualTo(2.0);
    }

    @Test
    void window_sumsWholeSlices_andAnEmptyWindowIsZero() {
        TimeSeries series = new TimeSeries(ticker, List.of("a"));
        for (int i = 0; i < 30; i++) {
            series.record(CallTally.Outcome.OK, "a", 1);
            ticker.advance(Duration.ofMillis(100));
        }

        assertThat(series.window(1000, 2000).answered("a")).isEqualTo(10);
        assertThat(series.window(0, 3000).calls()).isEqualTo(30);
        assertThat(series.window(5000, 6000).calls()).isZero();
        assertThat(series.window(5000, 6000).p99Nanos()).isZero();
        assertThat(series.window(1000, 1000).perSecond(5)).isZero();
    }

    @Test
    void adjacentWindows_splitOffSlice_neverCountACallTwice() {
        TimeSeries series = new TimeSeries(ticker, List.of("a"));
        for (int i = 0; i < 50; i++) {
            series.record(CallTally.Outcome.MOCKED, null, 1);
            ticker.advance(Duration.ofMillis(10));
        }

        long before = series.window(0, 204).mocked();
        long after = series.window(204, 500).mocked();

        assertThat(before).isEqualTo(20);
        assertThat(before + after).isEqualTo(50);
    }

    @Test
    void concurrentRecords_areAllCounted() throws InterruptedException {
        TimeSeries series = new TimeSeries(ticker, List.of("a", "b"));
        ExecutorService pool = Executors.newFixedThreadPool(8);
        CountDownLatch start = new CountDownLatch(1);
        try {
            for (int t = 0; t < 8; t++) {
                String provider = t % 2 == 0 ? "a" : "b";
                pool.execute(() -> {
                    try {
                        start.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                    for (int i = 0; i < 5000; i++) {
                        series.record(CallTally.Outcome.OK, provider, i);
                    }
                });
            }
            start.countDown();
            pool.shutdown();
            assertThat(pool.awaitTermination(60, TimeUnit.SECONDS)).isTrue();
        } finally {
            pool.shutdownNow();
        }

        TimeSeries.Point all = series.window(0, 1000);
        assertThat(all.answered("a")).isEqualTo(20_000);
        assertThat(all.answered("b")).isEqualTo(20_000);
    }
}
