package dev.weft.rpc.loadbalance.internal;

import com.google.common.math.LongMath;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Smooth weighted round robin (the algorithm nginx uses) over a fixed weight vector.
 *
 * <p>Each step adds every weight to its invoker's current value, picks the largest current value
 * (ties go to the lower index; weight-0 invokers are never picked unless all weights are 0, then
 * all count as 1) and subtracts the total weight from the winner. Weights 5,1,1 give
 * {@code a a b a c a a}, repeating.
 *
 * <p>Concurrency: started from all-zero current values the sequence repeats every
 * {@code total / gcd(weights)} steps (each invoker has then been picked in proportion to its weight
 * and every current value is back to 0). When that period is at most {@link #MAX_SCHEDULE}, it is
 * computed once and callers take consecutive positions with one atomic increment: O(1), lock-free
 * and exact (k callers get exactly the next k positions). Otherwise, and when continuing from given
 * current values, every pick runs the O(n) step under this object's lock, which is equally exact.
 * Thread-safe.
 */
public final class SmoothRoundRobin {

    /** Longest precomputed period, in picks. */
    public static final int MAX_SCHEDULE = 1 << 16;

    private final int[] weights;
    private final long total;
    private final int[] schedule;
    private final AtomicLong ticket = new AtomicLong();
    private final long[] current;

    private SmoothRoundRobin(int[] weights, long[] start, boolean allowSchedule) {
        long sum = 0;
        for (int w : weights) {
            sum += w;
        }
        this.weights = sum == 0 ? filled(weights.length) : weights.clone();
        this.total = sum == 0 ? weights.length : sum;
        this.current = start.clone();
        this.schedule = allowSchedule ? schedule() : null;
    }

    /** A fresh round robin (all current values 0). */
    public static SmoothRoundRobin of(int[] weights) {
        return new SmoothRoundRobin(weights, new long[weights.length], true);
    }

    /**
     * A round robin continuing from the given current values, always on the locked path: for
     * weights that move (warm-up), where a schedule would not pay off.
     */
    public static SmoothRoundRobin continuing(int[] weights, long[] currentValues) {
        if (weights.length != currentValues.length) {
            throw new IllegalArgumentException("currentValues: " + currentValues.length + " values (expected: " + weights.length + ", one per weight)");
        }
        return new SmoothRoundRobin(weights, currentValues, false);
    }

    /** The next index. */
    public int next() {
        if (schedule != null) {
            return schedule[(int) (ticket.getAndIncrement() % schedule.length)];
        }
        synchronized (this) {
            return step(current);
        }
    }

    /** Whether picks use the precomputed schedule (else the lock). */
    public boolean isPrecomputed() {
        return schedule != null;
    }

    /** The current values of the locked path, i.e. the state the next pick starts from. */
    public synchronized long[] currentValues() {
        return current.clone();
    }

    private int step(long[] state) {
        int best = -1;
        long bestValue = Long.MIN_VALUE;
        for (int i = 0; i < state.length; i++) {
            int w = weights[i];
            if (w == 0) {
                continue;
            }
            long value = state[i] + w;
            state[i] = value;
            if (value > bestValue) {
                bestValue = value;
                best = i;
            }
        }
        state[best] -= total;
        return best;
    }

    /** One period from all-zero current values, or null when it is longer than {@link #MAX_SCHEDULE}. */
    private int[] schedule() {
        long gcd = 0;
        for (int w : weights) {
            gcd = LongMath.gcd(gcd, w);
        }
        long period = total / gcd;
        if (period > MAX_SCHEDULE) {
            return null;
        }
        long[] state = new long[weights.length];
        int[] picks = new int[(int) period];
        for (int i = 0; i < picks.length; i++) {
            picks[i] = step(state);
        }
        return picks;
    }

    private static int[] filled(int n) {
        int[] ones = new int[n];
        Arrays.fill(ones, 1);
        return ones;
    }
}
