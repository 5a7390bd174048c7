package dev.weft.rpc.loadbalance.internal;

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
 * <p>Concurrency: when the sequence becomes periodic within {@link #MAX_SCHEDULE} steps and
 * finding that costs at most about 2M step-invoker operations (about a millisecond), it is
 * precomputed once (a prefix and a cycle) and callers take consecutive positions with one atomic
 * increment: O(1), lock-free and exact (k callers get exactly the next k positions). Otherwise (a
 * very large total weight) every pick runs the O(n) step under this object's lock, which is
 * equally exact. Thread-safe.
 */
public final class SmoothRoundRobin {

    /** Longest precomputed schedule (prefix + cycle), in picks. */
    public static final int MAX_SCHEDULE = 1 << 16;
    /** Most simulation work (steps x invokers) spent precomputing, about a millisecond. */
    static final long MAX_PRECOMPUTE_WORK = 1 << 21;
    private static final int MAX_CYCLE_SEARCH = 16;

    private final int[] weights;
    private final long total;
    private final long[] start;
    // schedule mode
    private final int[] prefix;
    private final int[] cycle;
    private final long[] cycleStart;
    private final AtomicLong ticket = new AtomicLong();
    // locked mode
    private final long[] current;

    private SmoothRoundRobin(int[] weights, long[] start, boolean allowSchedule) {
        int n = weights.length;
        long sum = 0;
        for (int w : weights) {
            sum += w;
        }
        this.weights = sum == 0 ? filled(n) : weights.clone();
        this.total = sum == 0 ? n : sum;
        this.start = start.clone();
        int[][] found = allowSchedule ? findSchedule() : null;
        if (found != null) {
            this.prefix = found[0];
            this.cycle = found[1];
            long[] state = this.start.clone();
            for (int pick : prefix) {
                step(state);
            }
            this.cycleStart = state;
            this.current = null;
        } else {
            this.prefix = null;
            this.cycle = null;
            this.cycleStart = null;
            this.current = this.start.clone();
        }
    }

    /** A fresh round robin (all current values 0). */
    public static SmoothRoundRobin of(int[] weights) {
        return new SmoothRoundRobin(weights, new long[weights.length], true);
    }

    /**
     * A round robin continuing from the given current values (e.g. those of the invokers that
     * stayed in a changed list). {@code precompute = false} forces the locked mode, for weights
     * that change again soon (warm-up), where precomputing would not pay off.
     */
    public static SmoothRoundRobin continuing(int[] weights, long[] currentValues, boolean precompute) {
        if (weights.length != currentValues.length) {
            throw new IllegalArgumentException("currentValues: " + currentValues.length + " values (expected: " + weights.length + ", one per weight)");
        }
        return new SmoothRoundRobin(weights, currentValues, precompute);
    }

    /** The next index. */
    public int next() {
        if (cycle != null) {
            long position = ticket.getAndIncrement();
            if (position < prefix.length) {
                return prefix[(int) position];
            }
            return cycle[(int) ((position - prefix.length) % cycle.length)];
        }
        synchronized (this) {
            return step(current);
        }
    }

    /** Whether picks use the precomputed schedule (else the lock). */
    public boolean isPrecomputed() {
        return cycle != null;
    }

    /** The current values now, i.e. the state the next pick starts from. */
    public long[] currentValues() {
        if (cycle == null) {
            synchronized (this) {
                return current.clone();
            }
        }
        long position = ticket.get();
        long[] state;
        long steps;
        if (position < prefix.length) {
            state = start.clone();
            steps = position;
        } else {
            state = cycleStart.clone();
            steps = (position - prefix.length) % cycle.length;
        }
        for (long i = 0; i < steps; i++) {
            step(state);
        }
        return state;
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

    /** {prefix, cycle} such that the state after prefix + cycle equals the state after prefix; or null. */
    private int[][] findSchedule() {
        long gcd = 0;
        for (int w : weights) {
            gcd = gcd(gcd, w);
        }
        long period = total / gcd;
        if (period > MAX_SCHEDULE || period * weights.length > MAX_PRECOMPUTE_WORK) {
            return null;
        }
        long affordable = Math.max(period, MAX_PRECOMPUTE_WORK / weights.length);
        int maxSteps = (int) Math.min(Math.min(MAX_SCHEDULE, affordable), period * MAX_CYCLE_SEARCH);
        int[] picks = new int[maxSteps];
        long[] state = start.clone();
        long[] boundary = start.clone();
        for (int done = 0; done + period <= maxSteps; done += (int) period) {
            for (int i = 0; i < period; i++) {
                picks[done + i] = step(state);
            }
            if (Arrays.equals(state, boundary)) {
                return new int[][] {Arrays.copyOfRange(picks, 0, done), Arrays.copyOfRange(picks, done, done + (int) period)};
            }
            System.arraycopy(state, 0, boundary, 0, state.length);
        }
        return null;
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    private static int[] filled(int n) {
        int[] ones = new int[n];
        Arrays.fill(ones, 1);
        return ones;
    }
}
