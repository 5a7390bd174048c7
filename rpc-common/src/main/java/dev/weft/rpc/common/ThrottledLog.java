package dev.weft.rpc.common;

import com.google.common.base.Ticker;
import org.slf4j.Logger;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A log line that repeats (a failing peer, a registry outage, a bad frame on every call): written
 * at most once per interval; the occurrences in between are counted, and the next line written
 * says how many it stands for. A burst of a thousand failures gives a few lines instead of a
 * thousand, and none goes unreported. The first occurrence is written at once.
 *
 * <p>Lines read {@code message} alone, or {@code message (N more not logged since the last line)}.
 *
 * <p>Thread-safe: one compare-and-set of an immutable snapshot decides which of racing occurrences
 * writes the line and how many occurrences it stands for.
 */
public final class ThrottledLog {

    private final Logger logger;
    private final Ticker ticker;
    private final long intervalNanos;
    /** When the next line may be written, and the occurrences counted since the last one: changed together. */
    private final AtomicReference<Window> window;

    /** An immutable snapshot: the next line's earliest time and the occurrences it will stand for. */
    private record Window(long nextLineAt, long unreported) {
    }

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
        this.window = new AtomicReference<>(new Window(ticker.read(), 0));
    }

    /** Counts one occurrence; writes {@code message} at WARN when the interval allows. */
    public void warn(String message) {
        long skipped = occurred();
        if (skipped >= 0) {
            logger.warn(withCount(message, skipped));
        }
    }

    /**
     * Counts one occurrence; writes {@code message} at DEBUG when the interval allows: for an
     * expected event worth counting, not a warning (an answer arriving after its caller gave up).
     */
    public void debug(String message) {
        long skipped = occurred();
        if (skipped >= 0 && logger.isDebugEnabled()) {
            logger.debug(withCount(message, skipped));
        }
    }

    /**
     * Counts one occurrence; writes {@code message}, then the class and message of {@code cause}
     * (not its stack trace: the cause of a repeated failure is known after the first line), at
     * WARN when the interval allows.
     */
    public void warn(String message, Throwable cause) {
        long skipped = occurred();
        if (skipped >= 0) {
            logger.warn(withCount(message + ": " + describe(cause), skipped));
        }
    }

    /** Counts one occurrence; writes {@code message} with the stack trace of {@code failure} at ERROR when the interval allows. */
    public void error(String message, Throwable failure) {
        long skipped = occurred();
        if (skipped >= 0) {
            logger.error(withCount(message, skipped), failure);
        }
    }

    /** Occurrences counted since the last line written. */
    public long unreported() {
        return window.get().unreported();
    }

    /** A throwable's simple class name and message, for one log line or an error message. */
    public static String describe(Throwable cause) {
        String text = cause.getMessage();
        return cause.getClass().getSimpleName() + (text == null ? "" : " " + text);
    }

    /**
     * Counts one occurrence: the number of earlier occurrences this one's line stands for when the
     * interval allows a line now, else -1 (counted for the next line). One compare-and-set of the
     * snapshot decides both, so a line reports exactly the occurrences counted before its own.
     */
    private long occurred() {
        long now = ticker.read();
        while (true) {
            Window current = window.get();
            boolean write = now - current.nextLineAt() >= 0;
            Window next = write ? new Window(now + intervalNanos, 0) : new Window(current.nextLineAt(), current.unreported() + 1);
            if (window.compareAndSet(current, next)) {
                return write ? current.unreported() : -1;
            }
        }
    }

    private static String withCount(String message, long skipped) {
        return skipped == 0 ? message : message + " (" + skipped + " more not logged since the last line)";
    }
}
