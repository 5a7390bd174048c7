package dev.weft.rpc.cluster;

import com.google.common.base.Ticker;

import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
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
 * one second. Calls are dated in batches: the clock is read once every {@value #DATING_BATCH} calls
 * and at each retry, and the calls started since the previous reading are counted in that
 * reading's second, the earliest they can have started. A deposit may so leave the window early,
 * never late: the budget errs towards fewer retries, by at most one batch of calls. Why batches:
 * on some virtual machines reading the clock costs as much as the rest of a call's path in the
 * consumer, and a deposit per call would pay it on every call.
 *
 * <p>Thread-safe: a deposit takes no lock but once per batch; the dating of batches and the
 * withdrawals are serialised, so that racing retries never overdraw the budget.
 */
public final class RetryBudget {

    /** The window over which calls and retries are counted. */
    public static final int WINDOW_SECONDS = 10;

    /** Calls counted per reading of the clock (and at each retry). */
    static final int DATING_BATCH = 64;

    private static final long BUCKET_NANOS = TimeUnit.SECONDS.toNanos(1);
    private static final long NO_EPOCH = Long.MIN_VALUE;

    private final Ticker ticker;
    /** The second each bucket counts; {@link #NO_EPOCH} when unused. */
    private final AtomicLongArray epochs = new AtomicLongArray(WINDOW_SECONDS);
    private final AtomicLongArray calls = new AtomicLongArray(WINDOW_SECONDS);
    private final AtomicLongArray retries = new AtomicLongArray(WINDOW_SECONDS);
    private final LongAdder granted = new LongAdder();
    private final LongAdder refused = new LongAdder();
    /** Calls started since {@link #lastReadingNanos}, not yet in a bucket. */
    private final AtomicLong undated = new AtomicLong();
    /** The clock's last reading; guarded by {@code this}. */
    private long lastReadingNanos;

    /** A budget reading time from {@code ticker}. */
    public RetryBudget(Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        for (int i = 0; i < WINDOW_SECONDS; i++) {
            epochs.set(i, NO_EPOCH);
        }
        lastReadingNanos = ticker.read();
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
        if (!settings.off() && undated.incrementAndGet() >= DATING_BATCH) {
            synchronized (this) {
                dateCalls(ticker.read());
            }
        }
    }

    /**
     * Counts the calls started since the last reading in that reading's second (none once it has
     * left the window), and takes {@code now} as the last reading. Called holding {@code this}.
     */
    private void dateCalls(long now) {
        long batch = undated.getAndSet(0);
        long since = lastReadingNanos;
        lastReadingNanos = Math.max(since, now); // a reading taken before another thread's, dated after it
        if (batch > 0 && Math.floorDiv(since, BUCKET_NANOS) > Math.floorDiv(now, BUCKET_NANOS) - WINDOW_SECONDS) {
            calls.addAndGet(bucket(since), batch);
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
            dateCalls(now);
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

    /**
     * The bucket of the second of {@code nanos}, cleared first when it still counts an older second.
     * Called holding {@code this}.
     */
    private int bucket(long nanos) {
        long epoch = Math.floorDiv(nanos, BUCKET_NANOS);
        int slot = (int) Math.floorMod(epoch, (long) WINDOW_SECONDS);
        if (epochs.get(slot) < epoch) {
            calls.set(slot, 0);
            retries.set(slot, 0);
            epochs.set(slot, epoch);
        }
        return slot;
    }

    @Override
    public String toString() {
        return "RetryBudget[granted=" + granted() + ", refused=" + refused() + "]";
    }
}
