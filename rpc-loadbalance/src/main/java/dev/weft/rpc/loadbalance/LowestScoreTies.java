package dev.weft.rpc.loadbalance;

import dev.weft.rpc.loadbalance.internal.WeightTable;

import java.util.random.RandomGenerator;

/**
 * The scan shared by the score-driven balancers: offer every eligible invoker's score, keep the
 * indexes that tie for the lowest, then pick among them at random — uniformly when their weights
 * are equal, else in proportion to their effective weights.
 *
 * <p>One instance per thread, reused (no allocation per call); obtain it with {@link #start(int)}
 * and finish the scan on the same thread before starting another.
 */
final class LowestScoreTies {

    private static final ThreadLocal<LowestScoreTies> PER_THREAD = ThreadLocal.withInitial(LowestScoreTies::new);

    private int[] ties = new int[128];
    private int count;
    private long best;
    private long weightSum;
    private int firstWeight;
    private boolean sameWeight;

    private LowestScoreTies() {
    }

    /** The calling thread's scan, emptied and able to hold {@code size} invokers. */
    static LowestScoreTies start(int size) {
        LowestScoreTies scan = PER_THREAD.get();
        if (scan.ties.length < size) {
            scan.ties = new int[Math.max(size, scan.ties.length * 2)];
        }
        scan.count = 0;
        scan.best = Long.MAX_VALUE;
        scan.weightSum = 0;
        scan.firstWeight = 0;
        scan.sameWeight = true;
        return scan;
    }

    /** Offers invoker {@code index} with {@code score} (lower is better) and its effective {@code weight}. */
    void offer(int index, long score, int weight) {
        if (score > best) {
            return;
        }
        if (score < best) {
            best = score;
            count = 0;
            weightSum = 0;
            firstWeight = weight;
            sameWeight = true;
        } else {
            sameWeight &= weight == firstWeight;
        }
        ties[count++] = index;
        weightSum += weight;
    }

    /** The index picked among the ties; at least one invoker must have been offered. */
    int pick(WeightTable weights, RandomGenerator random) {
        if (count == 1) {
            return ties[0];
        }
        if (sameWeight) {
            return ties[random.nextInt(count)];
        }
        long offset = random.nextLong(weightSum);
        for (int i = 0; i < count; i++) {
            offset -= weights.effectiveWeight(ties[i]);
            if (offset < 0) {
                return ties[i];
            }
        }
        return ties[count - 1];
    }
}
