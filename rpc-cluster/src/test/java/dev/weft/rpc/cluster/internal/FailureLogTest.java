package dev.weft.rpc.cluster.internal;

import com.google.common.base.Ticker;
import org.junit.jupiter.api.Test;
import org.slf4j.Marker;
import org.slf4j.event.Level;
import org.slf4j.helpers.AbstractLogger;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

class FailureLogTest {

    /** Records every ERROR line and whether it carried a stack trace. */
    private static final class RecordingLogger extends AbstractLogger {
        private static final long serialVersionUID = 1L;
        final List<String> lines = new ArrayList<>();
        int stackTraces;

        @Override
        protected String getFullyQualifiedCallerName() {
            return null;
        }

        @Override
        protected void handleNormalizedLoggingCall(Level level, Marker marker, String message, Object[] arguments, Throwable throwable) {
            lines.add(level + " " + message);
            stackTraces += throwable != null ? 1 : 0;
        }

        @Override
        public boolean isTraceEnabled() {
            return true;
        }

        @Override
        public boolean isTraceEnabled(Marker marker) {
            return true;
        }

        @Override
        public boolean isDebugEnabled() {
            return true;
        }

        @Override
        public boolean isDebugEnabled(Marker marker) {
            return true;
        }

        @Override
        public boolean isInfoEnabled() {
            return true;
        }

        @Override
        public boolean isInfoEnabled(Marker marker) {
            return true;
        }

        @Override
        public boolean isWarnEnabled() {
            return true;
        }

        @Override
        public boolean isWarnEnabled(Marker marker) {
            return true;
        }

        @Override
        public boolean isErrorEnabled() {
            return true;
        }

        @Override
        public boolean isErrorEnabled(Marker marker) {
            return true;
        }
    }

    private final AtomicLong nanos = new AtomicLong(1_000_000_000L);
    private final Ticker ticker = new Ticker() {
        @Override
        public long read() {
            return nanos.get();
        }
    };

    @Test
    void aBurstOfFailures_logsOneStackTrace_andTheNextLineCountsTheRest() {
        RecordingLogger logger = new RecordingLogger();
        FailureLog log = new FailureLog(logger, ticker);
        for (int i = 0; i < 500; i++) {
            log.error("call " + i + " failed", new IllegalStateException("boom " + i));
        }
        assertThat(logger.lines).containsExactly("ERROR call 0 failed");
        assertThat(log.suppressed()).isEqualTo(499);

        nanos.addAndGet(FailureLog.PERIOD_NANOS);
        log.error("call 500 failed", new IllegalStateException("boom"));
        assertThat(logger.lines).containsExactly("ERROR call 0 failed",
                "ERROR call 500 failed (499 similar failures not logged in the last 10 s)");
        assertThat(logger.stackTraces).isEqualTo(2);
        assertThat(log.suppressed()).isZero();
    }
}
