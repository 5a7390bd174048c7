package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.internal.SnapshotCache;
import dev.weft.rpc.loadbalance.internal.TimeSource;
import dev.weft.rpc.loadbalance.internal.WeightTable;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * {@code p2c}: power of two choices. Draws two distinct invokers at random (weighted, so weight-0
 * invokers are never drawn unless all are 0) and takes the one with the lower
 * peak-EWMA latency × (in-flight + 1).
 *
 * <p>Peak EWMA ({@link InvokerStats#peakEwmaNanos()}): decay time constant {@value #DECAY_KEY}
 * (consumer URL, method level first, milliseconds, default 10000); errors raise the estimate. An
 * invoker with no history is neutral: it takes the other candidate's estimate, so in-flight
 * counts decide; two without history compare in-flight counts only. History starts with the first
 * call after this balancer first sees the invoker: that is when it turns
 * {@linkplain InvokerStats#trackLatency() latency tracking} on.
 *
 * <p>Both estimates are decayed to the later of the two candidates' last updates rather than to a
 * clock reading (no clock per pick): an idle invoker's estimate shrinks relative to an active one,
 * so a once-slow invoker is probed again.
 *
 * <p>O(1) per pick (two random draws, O(log n) each when weights differ). Thread-safe.
 */
public class P2cLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "p2c";
    /** EWMA decay time constant in milliseconds (consumer URL, method level first). */
    public static final String DECAY_KEY = "p2c.decay";
    public static final long DEFAULT_DECAY_MILLIS = 10_000;
    private static final int DISTINCT_DRAWS = 4;

    private final Supplier<? extends RandomGenerator> random;
    private final SnapshotCache<Snapshot> snapshots;

    public P2cLoadBalance() {
        this(TimeSource.SYSTEM, ThreadLocalRandom::current);
    }

    P2cLoadBalance(TimeSource time, Supplier<? extends RandomGenerator> random) {
        super(time);
        this.random = Objects.requireNonNull(random, "random");
        this.snapshots = new SnapshotCache<>(list -> new Snapshot(new InvokerSnapshot(list, time, InvokerSnapshot.Reads.LATENCY)));
    }

    @Override
    protected <T> Invoker<T> doSelect(List<Invoker<T>> invokers, URL url, Invocation invocation) {
        Snapshot snapshot = snapshots.get(invokers);
        String method = invocation.getMethodName();
        InvokerSnapshot base = snapshot.base;
        WeightTable weights = base.weights(method);
        long decayNanos = snapshot.decayNanos(url, method);
        RandomGenerator rnd = random.get();
        int a = weights.pick(rnd);
        int b = secondPick(weights, a, rnd);
        if (b == a) {
            return invokers.get(a);
        }
        InvokerStats first = base.stats[a];
        InvokerStats second = base.stats[b];
        first.ewmaDecayNanos(decayNanos);
        second.ewmaDecayNanos(decayNanos);
        long now = Math.max(first.ewmaStamp(), second.ewmaStamp());
        double costA = first.peakEwmaAt(now);
        double costB = second.peakEwmaAt(now);
        if (costA < 0) {
            costA = costB < 0 ? 1 : costB;
        }
        if (costB < 0) {
            costB = costA;
        }
        int inFlightA = first.inFlightCount();
        int inFlightB = second.inFlightCount();
        double scoreA = costA * (inFlightA + 1.0);
        double scoreB = costB * (inFlightB + 1.0);
        if (scoreA != scoreB) {
            return invokers.get(scoreA < scoreB ? a : b);
        }
        return invokers.get(inFlightB < inFlightA ? b : a);
    }

    private static int secondPick(WeightTable weights, int first, RandomGenerator rnd) {
        int n = weights.size();
        if (weights.isUniform()) {
            int other = rnd.nextInt(n - 1);
            return other >= first ? other + 1 : other;
        }
        for (int attempt = 0; attempt < DISTINCT_DRAWS; attempt++) {
            int other = weights.pick(rnd);
            if (other != first) {
                return other;
            }
        }
        for (int step = 1; step < n; step++) {
            int other = (first + step) % n;
            if (weights.isEligible(other)) {
                return other;
            }
        }
        return first;
    }

    /** Invoker snapshot plus the decay read from the last consumer URL seen. */
    private static final class Snapshot {
        final InvokerSnapshot base;
        private final ConcurrentMap<String, Decay> byMethod = new ConcurrentHashMap<>(4);
        private volatile Decay decay;

        Snapshot(InvokerSnapshot base) {
            this.base = base;
        }

        long decayNanos(URL url, String method) {
            Decay cached = decay;
            if (cached != null && cached.url == url && Objects.equals(cached.method, method)) {
                return cached.nanos;
            }
            String key = method == null ? "" : method;
            Decay known = byMethod.get(key);
            if (known != null && known.url == url) {
                decay = known;
                return known.nanos;
            }
            long millis = url.getMethodParameter(method, DECAY_KEY, DEFAULT_DECAY_MILLIS);
            if (millis <= 0) {
                throw new IllegalArgumentException(DECAY_KEY + ": " + millis + " (expected: milliseconds > 0) in consumer URL " + url);
            }
            long nanos = TimeUnit.MILLISECONDS.toNanos(millis);
            Decay fresh = new Decay(url, method, nanos);
            byMethod.put(key, fresh);
            decay = fresh;
            return nanos;
        }
    }

    private static final class Decay {
        final URL url;
        final String method;
        final long nanos;

        Decay(URL url, String method, long nanos) {
            this.url = url;
            this.method = method;
            this.nanos = nanos;
        }
    }
}
