package dev.weft.rpc.loadbalance.internal;

import dev.weft.rpc.common.URL;

import java.util.Arrays;
import java.util.random.RandomGenerator;

/**
 * The effective weights of one invoker list for one method at one moment, with cumulative sums for
 * O(log n) weighted picks. Immutable and thread-safe.
 *
 * <p>When every weight is 0 the table is uniform (every invoker equally likely); otherwise an
 * invoker of weight 0 is never picked. {@link #refreshAtMillis()} is when warm-up makes the table
 * stale ({@link Long#MAX_VALUE} when no invoker is warming up): at most every
 * {@value #WARMUP_REFRESH_MILLIS} ms.
 */
public final class WeightTable {

    /** While any provider warms up, weights are recomputed at most this often. */
    public static final long WARMUP_REFRESH_MILLIS = 10;

    private final int[] weights;
    private final long[] cumulative;
    private final long total;
    private final boolean uniform;
    private final long refreshAtMillis;

    private WeightTable(int[] weights, long refreshAtMillis) {
        this.weights = weights;
        this.cumulative = new long[weights.length];
        long sum = 0;
        boolean equal = true;
        for (int i = 0; i < weights.length; i++) {
            sum += weights[i];
            cumulative[i] = sum;
            equal &= weights[i] == weights[0];
        }
        this.total = sum;
        this.uniform = equal;
        this.refreshAtMillis = refreshAtMillis;
    }

    /** Static weights (already validated) plus warm-up ends give the table at {@code nowMillis}. */
    public static WeightTable at(URL[] providers, int[] staticWeights, long[] warmupEnds, long nowMillis) {
        int n = providers.length;
        int[] weights = new int[n];
        long refreshAt = Long.MAX_VALUE;
        for (int i = 0; i < n; i++) {
            weights[i] = ProviderWeight.warmedWeight(providers[i], staticWeights[i], warmupEnds[i], nowMillis);
            if (staticWeights[i] > 0 && warmupEnds[i] != Long.MIN_VALUE && nowMillis < warmupEnds[i]) {
                refreshAt = Math.min(refreshAt, Math.min(warmupEnds[i], nowMillis + WARMUP_REFRESH_MILLIS));
            }
        }
        return new WeightTable(weights, refreshAt);
    }

    /** A table of fixed weights (tests, custom balancers). */
    public static WeightTable of(int... weights) {
        return new WeightTable(weights.clone(), Long.MAX_VALUE);
    }

    public int size() {
        return weights.length;
    }

    public int weight(int index) {
        return weights[index];
    }

    public long total() {
        return total;
    }

    /** Whether all weights are equal (all zero included): picks are then uniform. */
    public boolean isUniform() {
        return uniform;
    }

    /** Whether {@code index} may be picked: its weight is positive, or all weights are 0. */
    public boolean isEligible(int index) {
        return weights[index] > 0 || total == 0;
    }

    /** The weight used for weighted choices among candidates: 1 for all when all are 0. */
    public int effectiveWeight(int index) {
        return total == 0 ? 1 : weights[index];
    }

    public long refreshAtMillis() {
        return refreshAtMillis;
    }

    /**
     * A weighted random index: O(1) when uniform ({@link UniformIndex#draw}), else a binary search
     * of the cumulative sums.
     */
    public int pick(RandomGenerator random) {
        if (uniform) {
            return UniformIndex.draw(random, weights.length);
        }
        return indexOf(random.nextLong(total));
    }

    /** The index whose cumulative interval contains {@code offset} ({@code 0 <= offset < total}). */
    public int indexOf(long offset) {
        int low = 0;
        int high = cumulative.length - 1;
        while (low < high) {
            int mid = (low + high) >>> 1;
            if (cumulative[mid] > offset) {
                high = mid;
            } else {
                low = mid + 1;
            }
        }
        return low;
    }

    /** A copy of the weights. */
    public int[] weights() {
        return weights.clone();
    }

    @Override
    public String toString() {
        return "WeightTable" + Arrays.toString(weights);
    }
}
