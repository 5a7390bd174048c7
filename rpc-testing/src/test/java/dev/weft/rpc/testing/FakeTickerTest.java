package dev.weft.rpc.testing;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FakeTickerTest {

    @Test
    void startsAtZero_andMovesOnlyWhenTold() {
        FakeTicker ticker = new FakeTicker();

        assertThat(ticker.read()).isZero();
        assertThat(ticker.read()).isZero();
        assertThat(ticker.elapsed()).isEqualTo(Duration.ZERO);
    }

    @Test
    void advance_addsDurationsAndUnits() {
        FakeTicker ticker = new FakeTicker();

        ticker.advance(Duration.ofMillis(3)).advance(250, TimeUnit.MICROSECONDS).advance(7, TimeUnit.NANOSECONDS);

        assertThat(ticker.read()).isEqualTo(3_250_007L);
        assertThat(ticker.elapsed()).isEqualTo(Duration.ofNanos(3_250_007L));
        assertThat(ticker).hasToString("FakeTicker[3250007 ns]");
    }

    @Test
    void set_placesTheReadingAnywhere_evenBackwards() {
        FakeTicker ticker = new FakeTicker().advance(Duration.ofSeconds(5));

        ticker.set(42);

        assertThat(ticker.read()).isEqualTo(42);
    }

    @Test
    void negativeAdvance_isRejected_withTheAmount() {
        FakeTicker ticker = new FakeTicker();

        assertThatThrownBy(() -> ticker.advance(Duration.ofMillis(-1)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("amount: -1000000 NANOSECONDS (expected: >= 0; a ticker never runs backwards)");
        assertThatThrownBy(() -> ticker.advance(-2, TimeUnit.SECONDS))
                .hasMessageStartingWith("amount: -2 SECONDS");
        assertThat(ticker.read()).isZero();
    }

    @Test
    void concurrentAdvances_loseNothing() throws Exception {
        FakeTicker ticker = new FakeTicker();
        int threads = 8;
        int perThread = 20_000;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        ticker.advance(3, TimeUnit.NANOSECONDS);
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(ticker.read()).isEqualTo(3L * threads * perThread);
    }
}
