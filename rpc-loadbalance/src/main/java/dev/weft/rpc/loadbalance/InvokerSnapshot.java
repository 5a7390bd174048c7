package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.internal.ProviderWeight;
import dev.weft.rpc.loadbalance.internal.TimeSource;
import dev.weft.rpc.loadbalance.internal.WeightTable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * What the weighted balancers derive from one invoker list, computed once per list instance: the
 * providers' URLs, their statistics objects (with the tracking the balancer reads turned on) and
 * their weight tables (per method only when some
 * provider has a method-level {@code weight}).
 *
 * <p>Weight errors are found when a method's table is first built and remembered: every later call
 * fails fast with the same message without re-reading URLs, and the error is logged once.
 *
 * <p>Thread-safe; holds no reference to the list itself.
 */
final class InvokerSnapshot {

    private static final Logger LOG = LoggerFactory.getLogger(InvokerSnapshot.class);
    private static final String ANY_METHOD = "";

    final int size;
    final URL[] providers;
    final InvokerStats[] stats;
    private final TimeSource time;
    private final boolean methodLevelWeights;
    private final ConcurrentMap<String, MethodWeights> byMethod = new ConcurrentHashMap<>(4);
    private volatile MethodWeights shared;
    /**
     * Set by {@code random} once it found the weights equal for every method and settled (no
     * method-level weights, no provider warming up): a settled table is never recomputed, so every
     * later pick on this list is one uniform draw. Plain on purpose: a stale {@code false} only
     * takes the longer path.
     */
    boolean uniformSettled;

    /** Which statistics a balancer reads, so that the cluster records them from now on. */
    enum Reads {
        /** Weights only ({@code random}, {@code roundrobin}). */
        NOTHING,
        /** Calls in flight ({@link InvokerStats#trackInFlight()}). */
        IN_FLIGHT,
        /** Latency and calls in flight ({@link InvokerStats#trackLatency()}). */
        LATENCY
    }

    /** @param reads what the balancer reads: each invoker's statistics are asked to track it from now on */
    InvokerSnapshot(List<? extends Invoker<?>> invokers, TimeSource time, Reads reads) {
        this.size = invokers.size();
        this.providers = new URL[size];
        this.stats = new InvokerStats[size];
        this.time = time;
        boolean methodLevel = false;
        for (int i = 0; i < size; i++) {
            Invoker<?> invoker = invokers.get(i);
            providers[i] = invoker.getUrl();
            stats[i] = InvokerStats.of(invoker);
            if (reads == Reads.LATENCY) {
                stats[i].trackLatency();
            } else if (reads == Reads.IN_FLIGHT) {
                stats[i].trackInFlight();
            }
            for (String key : providers[i].getParameters().keySet()) {
                methodLevel |= key.endsWith("." + ProviderWeight.WEIGHT_KEY);
            }
        }
        this.methodLevelWeights = methodLevel;
    }

    /** Whether some provider has a method-level {@code weight}, so tables differ per method. */
    boolean weighsPerMethod() {
        return methodLevelWeights;
    }

    /**
     * The current weight table for {@code method}; recomputed only when warm-up makes it stale.
     *
     * @throws IllegalArgumentException when a provider's {@code weight}, {@code warmup} or {@code timestamp} is malformed
     */
    WeightTable weights(String method) {
        MethodWeights weights;
        if (methodLevelWeights) {
            String key = method == null ? ANY_METHOD : method;
            weights = byMethod.get(key);
            if (weights == null) {
                weights = byMethod.computeIfAbsent(key, m -> new MethodWeights(providers, m, time));
            }
        } else {
            weights = shared;
            if (weights == null) {
                weights = new MethodWeights(providers, null, time);
                shared = weights;
            }
        }
        return weights.current(time);
    }

    /** Static weights, warm-up ends and the latest table of one method; or the error found reading them. */
    private static final class MethodWeights {
        private final URL[] providers;
        private final int[] staticWeights;
        private final long[] warmupEnds;
        private final String error;
        private volatile WeightTable table;

        MethodWeights(URL[] providers, String method, TimeSource time) {
            this.providers = providers;
            int n = providers.length;
            int[] weights = new int[n];
            long[] ends = new long[n];
            String failure = null;
            try {
                for (int i = 0; i < n; i++) {
                    weights[i] = ProviderWeight.staticWeight(providers[i], method);
                    ends[i] = ProviderWeight.warmupEndMillis(providers[i]);
                }
            } catch (IllegalArgumentException e) {
                failure = e.getMessage();
                LOG.error("Load balancing cannot weigh the providers ({}): {}", method == null ? "all methods" : "method " + method, failure);
            }
            this.staticWeights = weights;
            this.warmupEnds = ends;
            this.error = failure;
            this.table = failure == null ? WeightTable.at(providers, weights, ends, time.currentTimeMillis()) : null;
        }

        WeightTable current(TimeSource time) {
            if (error != null) {
                throw new IllegalArgumentException(error);
            }
            WeightTable current = table;
            long refreshAt = current.refreshAtMillis();
            if (refreshAt != Long.MAX_VALUE) {
                long now = time.currentTimeMillis();
                if (now >= refreshAt) {
                    current = WeightTable.at(providers, staticWeights, warmupEnds, now);
                    table = current;
                }
            }
            return current;
        }
    }
}
