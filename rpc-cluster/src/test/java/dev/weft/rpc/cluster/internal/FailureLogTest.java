package dev.weft.rpc.cluster.internal;

import dev.weft.rpc.testing.CapturingLogger;
import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class FailureLogTest {

    private final FakeTicker ticker = new FakeTicker().set(1_000_000_000L);

    @Test
    void aBurstOfFailures_logsOneStackTrace_andTheNextLineCountsTheRest() {
        CapturingLogger logger = new CapturingLogger();
        FailureLog log = new FailureLog(logger, ticker);
        for (int i = 0; i < 500; i++) {
            log.error("call " + i + " failed", new IllegalStateException("boom " + i));
        }
        assertThat(logger.lines()).containsExactly("ERROR call 0 failed");
        assertThat(log.suppressed()).isEqualTo(499);

        ticker.advance(FailureLog.PERIOD_NANOS, TimeUnit.NANOSECONDS);
        log.error("call 500 failed", new IllegalStateException("boom"));
        assertThat(logger.lines()).containsExactly("ERROR call 0 failed",
                "ERROR call 500 failed (499 similar failures not logged in the last 10 s)");
        assertThat(logger.throwables()).isEqualTo(2);
        assertThat(log.suppressed()).isZero();
    }
}
