package dev.weft.rpc.loadbalance;

import dev.weft.rpc.loadbalance.internal.WeightTable;

import java.util.random.RandomGenerator;

/**
 * The pick shared by the score-driven balancers: the balancer writes every invoker's score (lower
 * is better, {@link #NOT_ELIGIBLE} for an invoker that must not be picked) into {@link #scores},
 * then {@link #pick} keeps the indexes that tie for the lowest and picks among them at random —
 * uniformly when their weights are equal, else in proportion to their effective weights.
 *
 * <p>Why arrays and one call rather than an {@code offer} per invoker: the running minimum, tie
 * count and weight sum then live in registers for the whole scan instead of being stored to and
 * reloaded from this object for every invoker, which was most of the cost of a scan over 100.
 *
 * <p>One instance per thread, reused (no allocation per call); obtain it with {@link #start(int)}
 * and finish with {@link #pick} on the same thread before starting another.
 */
final class LowestScoreTies {

    /** The score of an invoker that must not be picked (every real score is lower). */
    static final long NOT_ELIGIBLE = Long.MAX_VALUE;

    private static final ThreadLocal<LowestScoreTies> PER_THREAD = ThreadLocal.withInitial(LowestScoreTies::new);

    /** The score of invoker {@code i} at index {@code i}; the caller fills {@code [0, size)}. */
    long[] scores = new long[128];

    private LowestScoreTies() {
    }

    /** The calling thread's scan, able to hold {@code size} invokers. */
    static LowestScoreTies start(int size) {
        LowestScoreTies scan = PER_THREAD.get();
        if (scan.scores.length < size) {
            scan.scores = new long[Math.max(size, scan.scores.length * 2)];
        }
        return scan;
    }

    /**
     * The index picked among the scores of {@code scores[0, size)} equal to {@code best}, their
     * minimum (the caller tracks it while writing them, which saves a pass); at least one must be
     * eligible. {@code weights} gives the effective weights ({@link WeightTable#effectiveWeight}).
     */
    int pick(int size, long best, WeightTable weights, RandomGenerator random) {
        long[] s = scores;
        int count = 0;
        int lastTie = -1;
        long weightSum = 0;
        int firstWeight = -1;
        boolean sameWeight = true;
        for (int i = 0; i < size; i++) {
            if (s[i] == best) {
                int weight = weights.effectiveWeight(i);
                count++;
                lastTie = i;
                weightSum += weight;
                sameWeight &= firstWeight < 0 || weight == firstWeight;
                firstWeight = weight;
            }
        }
        if (count == 1) {
            return lastTie;
        }
        if (sameWeight) {
            int n = random.nextInt(count);
            return count == size ? n : nthTie(size, best, n);
        }
        long offset = random.nextLong(weightSum);
        if (weightSum == weights.total()) {
            // every invoker of positive weight ties: the cumulative sums answer in O(log n)
            return weights.indexOf(offset);
        }
        for (int i = 0; i < size; i++) {
            if (s[i] == best) {
                offset -= weights.effectiveWeight(i);
                if (offset < 0) {
                    return i;
                }
            }
        }
        return lastTie;
    }

    /** The index of the {@code n}-th (from 0) score equal to {@code best}. */
    private int nthTie(int size, long best, int n) {
        long[] s = scores;
        int seen = 0;
        for (int i = 0; i < size; i++) {
            if (s[i] == best && seen++ == n) {
                return i;
            }
        }
        throw new IllegalStateException("tie " + n + " of " + size + " not found");
    }
}
