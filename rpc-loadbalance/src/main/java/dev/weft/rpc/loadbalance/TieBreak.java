package dev.weft.rpc.loadbalance;

import dev.weft.rpc.loadbalance.internal.WeightTable;

import java.util.random.RandomGenerator;

/**
 * Weighted random choice among the indexes that tied for the best score, collected by a scan into
 * a per-thread scratch array (no allocation per call). Thread-safe (the scratch array is per thread).
 */
final class TieBreak {

    private static final ThreadLocal<int[]> SCRATCH = ThreadLocal.withInitial(() -> new int[128]);

    private TieBreak() {
    }

    /** A scratch array of at least {@code size} ints for the calling thread. */
    static int[] scratch(int size) {
        int[] buffer = SCRATCH.get();
        if (buffer.length < size) {
            buffer = new int[Math.max(size, buffer.length * 2)];
            SCRATCH.set(buffer);
        }
        return buffer;
    }

    /**
     * One of {@code ties[0..count)}: uniform when {@code sameWeight}, else proportional to the
     * effective weights, whose sum is {@code weightSum}.
     */
    static int pick(int[] ties, int count, boolean sameWeight, long weightSum, WeightTable weights, RandomGenerator random) {
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
