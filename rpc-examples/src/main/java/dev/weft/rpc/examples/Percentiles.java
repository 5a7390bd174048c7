package dev.weft.rpc.examples;

import com.google.common.base.Preconditions;

import java.util.Arrays;

/**
 * Latency percentiles by the nearest-rank method: the p-th percentile of n sorted samples is the
 * sample at rank {@code ceil(p / 100 * n)} (1-based), so it is always an observed value.
 * Immutable once built; thread-safe.
 */
final class Percentiles {

    private final long[] sorted;

    private Percentiles(long[] sorted) {
        this.sorted = sorted;
    }

    /** Percentiles of a copy of {@code samples} (the caller's array is not changed). */
    static Percentiles of(long[] samples) {
        long[] copy = samples.clone();
        Arrays.sort(copy);
        return new Percentiles(copy);
    }

    /** Number of samples. */
    int count() {
        return sorted.length;
    }

    /**
     * The {@code p}-th percentile, or 0 when there are no samples.
     *
     * @throws IllegalArgumentException unless {@code 0 < p <= 100}
     */
    long percentile(double p) {
        Preconditions.checkArgument(p > 0 && p <= 100, "percentile: %s (expected: 0 < p <= 100)", p);
        if (sorted.length == 0) {
            return 0;
        }
        int rank = (int) Math.ceil(p / 100.0 * sorted.length);
        return sorted[Math.max(rank, 1) - 1];
    }
}
