package dev.weft.rpc.testing;

import com.google.common.base.Ticker;

import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * A {@link Ticker} that moves only when the test moves it: {@link #advance(Duration)} or
 * {@link #set(long)}. Starts at 0 ns.
 *
 * <p>Hand it to code that measures time (statistics, warm-up, deadlines) so the test decides
 * exactly how much time passes. Thread-safe: reads and moves are atomic, so threads calling
 * {@link #advance} at once each add their full amount.
 */
public final class FakeTicker extends Ticker {

    private final AtomicLong nanos = new AtomicLong();

    /** A ticker reading 0 ns. */
    public FakeTicker() {
    }

    /** The current reading in nanoseconds. */
    @Override
    public long read() {
        return nanos.get();
    }

    /**
     * Moves the ticker forward by {@code amount}.
     *
     * @throws IllegalArgumentException when {@code amount} is negative (a ticker never runs backwards)
     */
    public FakeTicker advance(Duration amount) {
        Objects.requireNonNull(amount, "amount");
        return advance(amount.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Moves the ticker forward by {@code amount} {@code unit}s.
     *
     * @throws IllegalArgumentException when {@code amount} is negative (a ticker never runs backwards)
     */
    public FakeTicker advance(long amount, TimeUnit unit) {
        Objects.requireNonNull(unit, "unit");
        checkArgument(amount >= 0, "amount: %s %s (expected: >= 0; a ticker never runs backwards)", amount, unit);
        nanos.addAndGet(unit.toNanos(amount));
        return this;
    }

    /**
     * Sets the reading to {@code nanos}, which may be any value, including one below the current
     * reading (to test code that must survive a clock that is not monotonic).
     */
    public FakeTicker set(long nanos) {
        this.nanos.set(nanos);
        return this;
    }

    /** The current reading as a {@link Duration} since 0. */
    public Duration elapsed() {
        return Duration.ofNanos(nanos.get());
    }

    /** {@code FakeTicker[1500000 ns]}: the reading, for assertion messages. */
    @Override
    public String toString() {
        return "FakeTicker[" + nanos.get() + " ns]";
    }
}
