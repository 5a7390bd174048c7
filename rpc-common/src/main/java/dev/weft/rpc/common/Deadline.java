package dev.weft.rpc.common;

import com.google.common.base.Ticker;

import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * An absolute point in time on a {@link Ticker} by which a call must end: the budget of a whole
 * call ({@code call-timeout}) or of one attempt. Two deadlines compare only on the same ticker.
 *
 * <p>Immutable and thread-safe.
 */
public final class Deadline implements Comparable<Deadline> {

    private final Ticker ticker;
    private final long deadlineNanos;

    private Deadline(Ticker ticker, long deadlineNanos) {
        this.ticker = ticker;
        this.deadlineNanos = deadlineNanos;
    }

    /**
     * The deadline {@code duration} from now on {@code ticker}.
     *
     * @throws IllegalArgumentException when {@code duration} is negative
     */
    public static Deadline after(long duration, TimeUnit unit, Ticker ticker) {
        Objects.requireNonNull(unit, "unit");
        Objects.requireNonNull(ticker, "ticker");
        if (duration < 0) {
            throw new IllegalArgumentException("deadline duration: " + duration + " " + unit + " (expected: >= 0)");
        }
        long nanos = unit.toNanos(duration);
        long now = ticker.read();
        long at = now + nanos;
        return new Deadline(ticker, at < now ? Long.MAX_VALUE : at); // saturate instead of wrapping round
    }

    /** The ticker this deadline is measured on. */
    public Ticker ticker() {
        return ticker;
    }

    /** The deadline in the ticker's nanoseconds. */
    public long deadlineNanos() {
        return deadlineNanos;
    }

    /** What is left, in {@code unit}, rounded down; negative once passed. */
    public long timeRemaining(TimeUnit unit) {
        return unit.convert(deadlineNanos - ticker.read(), TimeUnit.NANOSECONDS);
    }

    /** Whether the deadline has passed. */
    public boolean isExpired() {
        return deadlineNanos - ticker.read() <= 0;
    }

    /** The earlier of this deadline and {@code other} ({@code null}: this one). */
    public Deadline minimum(Deadline other) {
        return other == null || compareTo(other) <= 0 ? this : other;
    }

    /**
     * Orders by time.
     *
     * @throws IllegalArgumentException when the deadlines are on different tickers
     */
    @Override
    public int compareTo(Deadline other) {
        if (other.ticker != ticker) {
            throw new IllegalArgumentException("deadline ticker: " + other.ticker + " (expected: the same ticker " + ticker + ")");
        }
        return Long.compare(deadlineNanos - other.deadlineNanos, 0);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Deadline other && other.ticker == ticker && other.deadlineNanos == deadlineNanos;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(deadlineNanos);
    }

    @Override
    public String toString() {
        long remaining = timeRemaining(TimeUnit.MILLISECONDS);
        return "Deadline[" + (remaining >= 0 ? remaining + " ms left" : -remaining + " ms ago") + "]";
    }
}
