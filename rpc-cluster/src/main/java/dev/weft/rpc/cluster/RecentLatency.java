package dev.weft.rpc.cluster;

import java.util.Arrays;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The latencies of the last {@value #SIZE} successful attempts of one method, and their
 * percentiles: what {@code hedge-delay=p95} reads. A percentile is computed from a sorted copy at
 * most once per {@value #RECOMPUTE_EVERY} new samples, so reading it costs a field read.
 *
 * <p>Thread-safe: samples go into a ring without a lock; a percentile computed while samples
 * arrive mixes old and new ones, which a recent-latency estimate allows.
 */
final class RecentLatency {

    /** Samples kept. */
    static final int SIZE = 1024;
    /** Samples needed before a percentile is known. */
    static final int MIN_SAMPLES = 20;
    private static final int RECOMPUTE_EVERY = 64;

    private final AtomicLongArray ring = new AtomicLongArray(SIZE);
    private final AtomicLong count = new AtomicLong();
    private volatile long computedAt = -1;
    private volatile long[] sorted = new long[0];

    /** Records one successful attempt's latency. */
    void record(long nanos) {
        long n = count.getAndIncrement();
        ring.set((int) (n % SIZE), nanos);
    }

    /**
     * The {@code percentile} (0 to 100) of the recent samples, in nanoseconds; -1 with fewer than
     * {@value #MIN_SAMPLES} samples.
     */
    long percentileNanos(double percentile) {
        long n = count.get();
        if (n < MIN_SAMPLES) {
            return -1;
        }
        if (computedAt < 0 || n - computedAt >= RECOMPUTE_EVERY) {
            int size = (int) Math.min(n, SIZE);
            long[] copy = new long[size];
            for (int i = 0; i < size; i++) {
                copy[i] = ring.get(i);
            }
            Arrays.sort(copy);
            sorted = copy;
            computedAt = n;
        }
        long[] current = sorted;
        int index = (int) Math.min(current.length - 1, Math.max(0, Math.ceil(percentile / 100 * current.length) - 1));
        return current[index];
    }
}
