package dev.weft.rpc.cluster;

import com.google.common.collect.MapMaker;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;

import java.util.Arrays;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The recent latency of one method, what {@code hedge-delay=p95} reads: the latencies of the last
 * {@value #SIZE} successful attempts at each provider, and a percentile robust to a slow minority
 * of providers: each provider with at least {@value #MIN_SAMPLES} samples has its own percentile,
 * and the delay is the <em>lower median</em> of those. One provider in four answering 20x slower
 * then does not set the delay (a percentile over all attempts would be that provider's latency as
 * soon as it gets more than the percentile's tail of the calls, as with {@code random}), while a
 * slowdown of most providers does. With fewer than {@value #MIN_SAMPLES} samples at every provider
 * the percentile is unknown, and the call is not hedged.
 *
 * <p>The value is computed from sorted copies at most once per {@value #RECOMPUTE_EVERY} new
 * samples (or when the percentile asked for changes), so reading it costs a field read.
 * Providers are held weakly: a provider no longer referenced takes its samples with it.
 *
 * <p>Thread-safe: samples go into rings without a lock; a value computed while samples arrive
 * mixes old and new ones, which a recent-latency estimate allows.
 */
final class RecentLatency {

    /** Samples kept per provider. */
    static final int SIZE = 256;
    /** Samples a provider needs before its percentile counts. */
    static final int MIN_SAMPLES = 20;
    private static final int RECOMPUTE_EVERY = 64;

    /** Per provider (unwrapped, held weakly). */
    private final ConcurrentMap<Invoker<?>, Ring> providers = new MapMaker().weakKeys().makeMap();
    private final AtomicLong count = new AtomicLong();
    private volatile Computed computed = new Computed(-1, Double.NaN, -1);

    /** A computed value: at sample count {@code at}, of {@code percentile}. */
    private record Computed(long at, double percentile, long nanos) {
    }

    /** The last {@value #SIZE} latencies of one provider. */
    private static final class Ring {
        final AtomicLongArray samples = new AtomicLongArray(SIZE);
        final AtomicLong count = new AtomicLong();

        void record(long nanos) {
            long n = count.getAndIncrement();
            samples.set((int) (n % SIZE), nanos);
        }

        /** This provider's {@code percentile}, or -1 with fewer than {@value #MIN_SAMPLES} samples. */
        long percentileNanos(double percentile) {
            int size = (int) Math.min(count.get(), SIZE);
            if (size < MIN_SAMPLES) {
                return -1;
            }
            long[] sorted = new long[size];
            for (int i = 0; i < size; i++) {
                sorted[i] = samples.get(i);
            }
            Arrays.sort(sorted);
            return sorted[indexOf(percentile, size)];
        }
    }

    /** Records one successful attempt at {@code provider} (any view of it) that took {@code nanos}. */
    void record(Invoker<?> provider, long nanos) {
        Invoker<?> key = InvokerView.unwrap(provider);
        Ring ring = providers.get(key);
        if (ring == null) {
            ring = providers.computeIfAbsent(key, k -> new Ring());
        }
        ring.record(nanos);
        count.incrementAndGet();
    }

    /**
     * The lower median over the providers with at least {@value #MIN_SAMPLES} samples of each
     * one's {@code percentile} (0 to 100) of its recent latencies, in nanoseconds; -1 while no
     * provider has that many.
     */
    long percentileNanos(double percentile) {
        long n = count.get();
        Computed known = computed;
        if (known.percentile() == percentile && known.nanos() >= 0 && n - known.at() < RECOMPUTE_EVERY) {
            return known.nanos();
        }
        long[] perProvider = providers.values().stream().mapToLong(ring -> ring.percentileNanos(percentile))
                .filter(nanos -> nanos >= 0).sorted().toArray();
        long nanos = perProvider.length == 0 ? -1 : perProvider[(perProvider.length - 1) / 2];
        computed = new Computed(n, percentile, nanos);
        return nanos;
    }

    private static int indexOf(double percentile, int size) {
        return (int) Math.min(size - 1, Math.max(0, Math.ceil(percentile / 100 * size) - 1));
    }
}
