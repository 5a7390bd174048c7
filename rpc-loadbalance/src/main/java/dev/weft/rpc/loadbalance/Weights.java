package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Objects;

/**
 * The current {@link WeightTable} of one picker: read once when the picker is built, and read
 * again (from the same provider URLs, at most every {@value WeightTable#WARMUP_REFRESH_MILLIS} ms)
 * only while some provider warms up. Without warm-up, {@link #current()} is one volatile read and
 * never reads the clock. Thread-safe.
 */
public final class Weights {

    private static final Logger LOG = LoggerFactory.getLogger(Weights.class);

    private final CallStats stats;
    private volatile WeightTable table;

    private Weights(WeightTable table, CallStats stats) {
        this.table = table;
        this.stats = stats;
    }

    /**
     * The weights of {@code invokers} for {@code method}, warm-up read from {@code stats}' clock.
     * Providers with malformed weight keys are left out ({@link WeightTable#problems()}) and logged
     * at WARN, once, here.
     */
    public static Weights read(List<? extends Invoker<?>> invokers, String method, CallStats stats) {
        Objects.requireNonNull(stats, "stats");
        WeightTable table = WeightTable.read(invokers, method, stats.currentTimeMillis());
        for (String problem : table.problems()) {
            LOG.warn("Load balancing leaves a provider out{}: {}", method == null ? "" : " for method " + method, problem);
        }
        return new Weights(table, stats);
    }

    /** The table now. */
    public WeightTable current() {
        WeightTable current = table;
        if (current.refreshAtMillis() == Long.MAX_VALUE) {
            return current;
        }
        WeightTable refreshed = current.refreshed(stats.currentTimeMillis());
        if (refreshed != current) {
            table = refreshed;
        }
        return refreshed;
    }
}
