package dev.weft.rpc.common;

import com.google.common.base.Ticker;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A log line that repeats (a failing peer, a registry outage, a bad frame on every call): written
 * at most once per interval; the occurrences in between are counted, and the next line written
 * says how many it stands for. A burst of a thousand failures gives a few lines instead of a
 * thousand, and none goes unreported. The first occurrence is written at once.
 *
 * <p>Lines read {@code message} alone, or {@code message (N more not logged since the last line)}.
 *
 * <p>Thread-safe: one compare-and-set decides which of racing occurrences writes the line.
 */
public final class ThrottledLog {

    private final Logger logger;
    private final Ticker ticker;
    private final long intervalNanos;
    private final AtomicLong nextLineAt;
    private final AtomicLong unreported = new AtomicLong();

    /**
     * @param logger   where the lines go
     * @param ticker   the clock the interval is measured on
     * @param interval the least time between two lines; positive
     */
    public ThrottledLog(Logger logger, Ticker ticker, Duration interval) {
        this.logger = Objects.requireNonNull(logger, "logger");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        checkArgument(Objects.requireNonNull(interval, "interval").compareTo(Duration.ZERO) > 0,
                "interval: %s (expected: > 0)", interval);
        this.intervalNanos = interval.toNanos();
        this.nextLineAt = new AtomicLong(ticker.read());
    }

    /** Counts one occurrence; writes {@code message} at WARN when the interval allows. */
    public void warn(String message) {
        if (mayWrite()) {
            logger.warn(withCount(message));
        }
    }

    /**
     * Counts one occurrence; writes {@code message} at DEBUG when the interval allows: for an
     * expected event worth counting, not a warning (an answer arriving after its caller gave up).
     */
    public void debug(String message) {
        if (mayWrite() && logger.isDebugEnabled()) {
            logger.debug(withCount(message));
        }
    }

    /**
     * Counts one occurrence; writes {@code message}, then the class and message of {@code cause}
     * (not its stack trace: the cause of a repeated failure is known after the first line), at
     * WARN when the interval allows.
     */
    public void warn(String message, Throwable cause) {
        if (mayWrite()) {
            logger.warn(withCount(message + ": " + describe(cause)));
        }
    }

    /** Counts one occurrence; writes {@code message} with the stack trace of {@code failure} at ERROR when the interval allows. */
    public void error(String message, Throwable failure) {
        if (mayWrite()) {
            logger.error(withCount(message), failure);
        }
    }

    /** Occurrences counted since the last line written. */
    public long unreported() {
        return unreported.get();
    }

    /** A throwable's simple class name and message, for one log line or an error message. */
    public static String describe(Throwable cause) {
        String text = cause.getMessage();
        return cause.getClass().getSimpleName() + (text == null ? "" : " " + text);
    }

    private boolean mayWrite() {
        long now = ticker.read();
        long next = nextLineAt.get();
        if (now - next >= 0 && nextLineAt.compareAndSet(next, now + intervalNanos)) {
            return true;
        }
        unreported.incrementAndGet();
        return false;
    }

    private String withCount(String message) {
        long skipped = unreported.getAndSet(0);
        return skipped == 0 ? message : message + " (" + skipped + " more not logged since the last line)";
    }
}
