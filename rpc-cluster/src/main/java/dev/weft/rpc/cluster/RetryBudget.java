package dev.weft.rpc.cluster;

import com.google.common.base.Ticker;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * The retry budget of one service on the consumer: how many retries (and hedges, and forks beyond
 * the first) its calls may make, so that retries cannot multiply the load of a provider that is
 * already failing.
 *
 * <p><b>Rule.</b> Over the last {@value #WINDOW_SECONDS} seconds, the retries granted stay below
 * {@code share × calls + minPerSecond × }{@value #WINDOW_SECONDS}: every call deposits {@code share}
 * of a retry, every retry withdraws one, and {@code minPerSecond} retries per second are always
 * allowed so that a service with few calls can still retry. Deposits and withdrawals both expire
 * with the window, so a burst of failures spends the budget and recovery refills it. This is the
 * model of Finagle's {@code RetryBudget} (defaults: 20 % of calls plus 10 retries per second over
 * 10 s). A share of 1 or more turns the budget off: every retry is granted and nothing is counted.
 *
 * <p>The settings are passed with each use ({@link Settings}, resolved once per directory state),
 * so an override rule that changes them applies to the very next call while the counts of the
 * window are kept.
 *
 * <p>Time comes from the injected {@link Ticker}; the window is {@value #WINDOW_SECONDS} buckets of
 * one second. Thread-safe: deposits take no lock; a call racing the turn of a bucket may be counted
 * in the bucket being cleared (an error of a few calls among thousands); withdrawals are serialised
 * so that racing retries never overdraw the budget.
 */
public final class RetryBudget {

    /** The window over which calls and retries are counted. */
    public static final int WINDOW_SECONDS = 10;

    private static final long BUCKET_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long NO_EPOCH = Long.MIN_VALUE;

    private final Ticker ticker;
    /** The second each bucket counts; {@link #NO_EPOCH} when unused. */
    private final AtomicLongArray epochs = new AtomicLongArray(WINDOW_SECONDS);
    private final AtomicLongArray calls = new AtomicLongArray(WINDOW_SECONDS);
    private final AtomicLongArray retries = new AtomicLongArray(WINDOW_SECONDS);
    private final LongAdder granted = new LongAdder();
    private final LongAdder refused = new LongAdder();

    /** A budget reading time from {@code ticker}. */
    public RetryBudget(Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        for (int i = 0; i < WINDOW_SECONDS; i++) {
            epochs.set(i, NO_EPOCH);
        }
    }

    /**
     * The budget's settings: {@code share} of the calls may be retried, plus {@code minPerSecond}
     * retries per second. Immutable.
     *
     * @param share        {@code retry-budget}: from 0; 1 or more turns the budget off
     * @param minPerSecond {@code retry-budget-min}: retries per second always allowed, from 0
     */
    public record Settings(double share, double minPerSecond) {

        /** The defaults: 20 % of the calls plus 10 retries per second. */
        public static final Settings DEFAULT = new Settings(0.2, 10);
        /** No budget: every retry is granted. */
        public static final Settings OFF = new Settings(1, 0);

        public Settings {
            if (!(share >= 0) || !(minPerSecond >= 0) || Double.isInfinite(minPerSecond)) {
                throw new IllegalArgumentException("retry budget: share " + share + ", " + minPerSecond
                        + " retries per second (expected: finite numbers >= 0)");
            }
        }

        /** Whether the budget is off ({@code share >= 1}). */
        public boolean off() {
            return share >= 1;
        }
    }

    /** A call starts: deposits its share. Nothing is counted when the budget is off. */
    public void onCall(Settings settings) {
        if (!settings.off()) {
            calls.incrementAndGet(bucket(ticker.read()));
        }
    }

    /**
     * Asks for one retry (or hedge). Granted retries are withdrawn from the budget; a refusal is
     * counted ({@link #refused()}).
     *
     * @return whether the retry may be made
     */
    public boolean tryRetry(Settings settings) {
        if (settings.off()) {
            granted.increment();
            return true;
        }
        synchronized (this) {
            long now = ticker.read();
            int slot = bucket(now);
            long epoch = Math.floorDiv(now, BUCKET_NANOS);
            long windowCalls = 0;
            long windowRetries = 0;
            for (int i = 0; i < WINDOW_SECONDS; i++) {
                long bucketEpoch = epochs.get(i);
                if (bucketEpoch != NO_EPOCH && bucketEpoch > epoch - WINDOW_SECONDS) {
                    windowCalls += calls.get(i);
                    windowRetries += retries.get(i);
                }
            }
            if (windowRetries + 1 > settings.share() * windowCalls + settings.minPerSecond() * WINDOW_SECONDS) {
                refused.increment();
                return false;
            }
            retries.incrementAndGet(slot);
            granted.increment();
            return true;
        }
    }

    /** Retries (and hedges) granted since this budget was created. */
    public long granted() {
        return granted.sum();
    }

    /** Retries (and hedges) refused since this budget was created. */
    public long refused() {
        return refused.sum();
    }

    /** The bucket of the second of {@code nanos}, cleared first when it still counts an older second. */
    private int bucket(long nanos) {
        long epoch = Math.floorDiv(nanos, BUCKET_NANOS);
        int slot = (int) Math.floorMod(epoch, (long) WINDOW_SECONDS);
        long seen = epochs.get(slot);
        if (seen != epoch && seen < epoch) {
            synchronized (epochs) {
                if (epochs.get(slot) < epoch) {
                    calls.set(slot, 0);
                    retries.set(slot, 0);
                    epochs.set(slot, epoch);
                }
            }
        }
        return slot;
    }

    @Override
    public String toString() {
        return "RetryBudget[granted=" + granted() + ", refused=" + refused() + "]";
    }
}
