package dev.weft.rpc.cluster.internal;

import com.google.common.base.Ticker;
import org.slf4j.Logger;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Logs repeated failures rate-limited, with counts: at most one line (with its stack trace) per
 * period; the failures in between are counted and the next line says how many there were. A burst
 * of a thousand failing calls therefore gives one stack trace, not a thousand, and nothing is
 * lost silently.
 *
 * <p>Thread-safe: one compare-and-set decides which racing failure is logged.
 */
public final class FailureLog {

    /** The period between two logged lines. */
    public static final long PERIOD_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final Logger log;
    private final Ticker ticker;
    private final AtomicLong nextAllowed;
    private final AtomicLong suppressed = new AtomicLong();

    public FailureLog(Logger log, Ticker ticker) {
        this.log = log;
        this.ticker = ticker;
        this.nextAllowed = new AtomicLong(ticker.read());
    }

    /** Logs {@code message} at ERROR with {@code failure}, or counts it when a line was logged less than a period ago. */
    public void error(String message, Throwable failure) {
        long now = ticker.read();
        long allowed = nextAllowed.get();
        if (now - allowed < 0 || !nextAllowed.compareAndSet(allowed, now + PERIOD_NANOS)) {
            suppressed.incrementAndGet();
            return;
        }
        long skipped = suppressed.getAndSet(0);
        if (!log.isErrorEnabled()) {
            return;
        }
        if (skipped == 0) {
            log.error(message, failure);
        } else {
            log.error(message + " (" + skipped + " similar failures not logged in the last "
                    + TimeUnit.NANOSECONDS.toSeconds(PERIOD_NANOS) + " s)", failure);
        }
    }

    /** Failures counted since the last logged line. */
    public long suppressed() {
        return suppressed.get();
    }
}
