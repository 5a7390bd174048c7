package dev.weft.rpc.common;

import com.google.common.base.Ticker;
import org.junit.jupiter.api.Test;
import org.slf4j.event.EventRecordingLogger;
import org.slf4j.event.Level;
import org.slf4j.event.SubstituteLoggingEvent;
import org.slf4j.helpers.SubstituteLogger;

import java.time.Duration;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A repeated line: written at once, then at most once per interval, each saying what it stands for. */
class ThrottledLogTest {

    /** Starts an hour in, so that a reading of 0 cannot pass for a computed one. */
    private final AtomicLong now = new AtomicLong(Duration.ofHours(1).toNanos());
    private final Ticker ticker = new Ticker() {
        @Override
        public long read() {
            return now.get();
        }
    };
    private final Queue<SubstituteLoggingEvent> events = new ConcurrentLinkedQueue<>();
    private final ThrottledLog log = new ThrottledLog(
            new EventRecordingLogger(new SubstituteLogger("test", events, false), events), ticker, Duration.ofSeconds(10));

    private List<String> lines() {
        return events.stream().map(e -> e.getLevel() + " " + e.getMessage()
                + (e.getThrowable() == null ? "" : " [" + e.getThrowable().getMessage() + "]")).toList();
    }

    private void advance(Duration duration) {
        now.addAndGet(duration.toNanos());
    }

    @Test
    void debug_isWrittenAtDebug_oncePerInterval_withWhatItStandsFor() {
        log.debug("late answer 1");
        log.debug("late answer 2");
        log.debug("late answer 3");
        advance(Duration.ofSeconds(10));
        log.debug("late answer 4");
        assertThat(lines()).containsExactly("DEBUG late answer 1",
                "DEBUG late answer 4 (2 more not logged since the last line)");
    }

    @Test
    void firstOccurrence_isWrittenAtOnce_theNextOncePerInterval_withWhatItStandsFor() {
        log.warn("peer 1 bad");
        log.warn("peer 2 bad");
        advance(Duration.ofMillis(9_999));
        log.warn("peer 3 bad");
        assertThat(lines()).containsExactly("WARN peer 1 bad");
        assertThat(log.unreported()).isEqualTo(2);

        advance(Duration.ofMillis(1));
        log.warn("peer 4 bad");
        assertThat(lines()).containsExactly("WARN peer 1 bad",
                "WARN peer 4 bad (2 more not logged since the last line)");
        assertThat(log.unreported()).isZero();

        advance(Duration.ofMinutes(5));
        log.warn("peer 5 bad");
        assertThat(lines()).last().isEqualTo("WARN peer 5 bad");
    }

    @Test
    void warnWithACause_namesItsClassAndMessage_withoutAStackTrace() {
        log.warn("connect to 127.0.0.1:1 failed", new IllegalStateException("refused"));
        advance(Duration.ofSeconds(10));
        log.warn("connect to 127.0.0.1:1 failed", new NullPointerException());

        assertThat(lines()).containsExactly("WARN connect to 127.0.0.1:1 failed: IllegalStateException refused",
                "WARN connect to 127.0.0.1:1 failed: NullPointerException");
        assertThat(events).allSatisfy(e -> assertThat(e.getThrowable()).isNull());
    }

    @Test
    void error_carriesTheStackTrace_andSharesTheIntervalWithWarnings() {
        log.error("call 0 failed", new IllegalStateException("boom 0"));
        for (int i = 1; i < 500; i++) {
            log.error("call " + i + " failed", new IllegalStateException("boom " + i));
        }
        log.warn("a warning in the same interval");
        advance(Duration.ofSeconds(10));
        log.error("call 500 failed", new IllegalStateException("boom 500"));

        assertThat(lines()).containsExactly("ERROR call 0 failed [boom 0]",
                "ERROR call 500 failed (500 more not logged since the last line) [boom 500]");
        assertThat(events.stream().map(SubstituteLoggingEvent::getLevel)).containsOnly(Level.ERROR);
    }

    @Test
    void manyThreadsAtOnce_getOneLine_andNoOccurrenceIsLostFromTheCounts() throws Exception {
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
        assertThat(lines()).containsExactly("WARN bad");
        advance(Duration.ofSeconds(10));
        log.warn("bad");

        assertThat(lines()).containsExactly("WARN bad", "WARN bad (7999 more not logged since the last line)");
    }

    @Test
    void intervalMustBePositive() {
        assertThatThrownBy(() -> new ThrottledLog(new SubstituteLogger("x", events, false), ticker, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessage("interval: PT0S (expected: > 0)");
    }
}
