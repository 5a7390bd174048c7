package dev.weft.rpc.loadbalance;

import java.util.random.RandomGenerator;

/**
 * The choice shared by the score-driven balancers: the eligible invoker with the lowest score,
 * ties broken by weighted random choice (uniform when the tied weights are equal).
 *
 * <p>Two passes over live counters, without allocation: the first finds the lowest score and its
 * ties, the second draws among them. A counter that moved between the passes can make the drawn
 * tie vanish; the last tie of the first pass is then taken, which is a tie a moment ago.
 */
final class LowestScore {

    /** The score of invoker {@code index} at time {@code nowNanos}; lower is better. */
    @FunctionalInterface
    interface Score {
        long of(int index, long nowNanos);
    }

    private LowestScore() {
    }

    /** The chosen index, or -1 when no invoker is eligible. */
    static int pick(WeightTable weights, Score score, long nowNanos, RandomGenerator random) {
        int n = weights.size();
        long best = Long.MAX_VALUE;
        int ties = 0;
        int lastTie = -1;
        long weightSum = 0;
        int firstWeight = -1;
        boolean sameWeight = true;
        for (int i = 0; i < n; i++) {
            if (!weights.isEligible(i)) {
                continue;
            }
            long s = score.of(i, nowNanos);
            int weight = weights.effectiveWeight(i);
            if (s < best) {
                best = s;
                ties = 1;
                lastTie = i;
                weightSum = weight;
                firstWeight = weight;
                sameWeight = true;
            } else if (s == best) {
                ties++;
                lastTie = i;
                weightSum += weight;
                sameWeight &= weight == firstWeight;
            }
        }
        if (ties <= 1) {
            return lastTie;
        }
        long draw = sameWeight ? random.nextInt(ties) : random.nextLong(weightSum);
        for (int i = 0; i < n; i++) {
            if (weights.isEligible(i) && score.of(i, nowNanos) == best) {
                draw -= sameWeight ? 1 : weights.effectiveWeight(i);
                if (draw < 0) {
                    return i;
                }
            }
        }
        return lastTie;
    }
}
