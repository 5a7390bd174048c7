package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.testing.CapturingLogger;
import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A repeated warning: one line at once, then at most one per 10 s, each counting what it stands for. */
class ThrottledLogTest {

    private final FakeTicker ticker = new FakeTicker();
    private final CapturingLogger logger = new CapturingLogger();
    private final ThrottledLog log = new ThrottledLog(logger, ticker);

    @Test
    void firstWarning_isLoggedAtOnce_theNextOnesOncePerInterval_withTheirCount() {
        log.warn("peer 1 bad");
        log.warn("peer 2 bad");
        ticker.advance(Duration.ofMillis(9_999));
        log.warn("peer 3 bad");
        assertThat(logger.lines()).containsExactly("WARN peer 1 bad (1 such event(s) since the last line)");

        ticker.advance(Duration.ofMillis(1));
        log.warn("peer 4 bad");
        assertThat(logger.lines()).containsExactly(
                "WARN peer 1 bad (1 such event(s) since the last line)",
                "WARN peer 4 bad (3 such event(s) since the last line)");

        ticker.advance(Duration.ofMinutes(5));
        log.warn("peer 5 bad");
        assertThat(logger.lines()).last().isEqualTo("WARN peer 5 bad (1 such event(s) since the last line)");
        assertThat(logger.throwables()).isZero();
    }

    @Test
    void manyThreadsWarningAtOnce_getOneLine_andNoEventIsLostFromTheCounts() throws Exception {
        Thread[] threads = new Thread[8];
        for (int t = 0; t < threads.length; t++) {
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 1_000; i++) {
                    log.warn("bad");
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join(10_000);
        }
        ticker.advance(Duration.ofSeconds(10));
        log.warn("bad");

        assertThat(logger.lines()).hasSize(2);
        long counted = logger.lines().stream()
                .mapToLong(line -> Long.parseLong(line.replaceAll(".*\\((\\d+) such event.*", "$1")))
                .sum();
        assertThat(counted).isEqualTo(8 * 1_000 + 1);
    }
}
