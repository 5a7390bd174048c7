package dev.weft.rpc.cluster.internal;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.loadbalance.InvokerStats;

import java.util.List;
import java.util.Objects;

/**
 * Resolves provider invokers to their {@link InvokerStats} without a registry lookup per call:
 * an identity table is built once per invoker list instance (directories hand out the same list
 * while membership and availability do not change) and each call probes it.
 *
 * <p>{@link #prepare(List)} is called with every listed list; the two most recently indexed lists
 * are kept. A list is indexed the second time in a row it is not found, so a directory returning a
 * new list on every call costs no table building (its calls fall back to
 * {@link InvokerStats#of(Invoker)}, as before this cache existed). {@link #of(Invoker)} always
 * answers the same instance as {@code InvokerStats.of}: a table only caches that answer, and it
 * holds its invokers strongly, so their registry entries stay put while it lives; an invoker not
 * in a table is looked up in the registry.
 *
 * <p>Holds at most three lists (two tables and the last unindexed one); {@link #clear()} drops
 * them. Thread-safe: tables are immutable behind one volatile field; racing threads may build a
 * table twice, and either is correct.
 */
public final class InvokerStatsCache {

    private volatile Recent recent = Recent.EMPTY;
    private volatile List<?> candidate;

    /** Indexes {@code invokers} if it was also the previous list not found (see the class comment). */
    public void prepare(List<? extends Invoker<?>> invokers) {
        Recent current = recent;
        if (current.first.list == invokers || current.second.list == invokers) {
            return;
        }
        if (candidate != invokers) {
            candidate = invokers;
            return;
        }
        candidate = null;
        recent = new Recent(Index.of(invokers), current.first);
    }

    /** The statistics of {@code invoker}: the same instance {@link InvokerStats#of(Invoker)} returns. */
    public InvokerStats of(Invoker<?> invoker) {
        Recent current = recent;
        InvokerStats stats = current.first.get(invoker);
        if (stats == null) {
            stats = current.second.get(invoker);
            if (stats == null) {
                stats = InvokerStats.of(invoker);
            }
        }
        return stats;
    }

    /** Drops every table and list reference, e.g. when the cluster invoker is destroyed. */
    public void clear() {
        recent = Recent.EMPTY;
        candidate = null;
    }

    /** Whether {@code invokers} is currently indexed; for tests. */
    boolean isIndexed(List<?> invokers) {
        Recent current = recent;
        return current.first.list == invokers || current.second.list == invokers;
    }

    /** The two most recently indexed lists, newest first. */
    private static final class Recent {
        static final Recent EMPTY = new Recent(Index.EMPTY, Index.EMPTY);

        final Index first;
        final Index second;

        Recent(Index first, Index second) {
            this.first = first;
            this.second = second;
        }
    }

    /** An immutable open-addressing identity table invoker -> statistics, at most half full. */
    static final class Index {
        static final Index EMPTY = new Index(null, new Object[1], new InvokerStats[1]);

        final List<?> list;
        private final Object[] keys;
        private final InvokerStats[] values;
        private final int mask;

        private Index(List<?> list, Object[] keys, InvokerStats[] values) {
            this.list = list;
            this.keys = keys;
            this.values = values;
            this.mask = keys.length - 1;
        }

        static Index of(List<? extends Invoker<?>> invokers) {
            int n = invokers.size();
            int capacity = Integer.highestOneBit(Math.max(1, 2 * n - 1)) << 1;
            Object[] keys = new Object[capacity];
            InvokerStats[] values = new InvokerStats[capacity];
            int mask = capacity - 1;
            for (int i = 0; i < n; i++) {
                Invoker<?> invoker = Objects.requireNonNull(invokers.get(i), "invoker in the list");
                int slot = slotOf(invoker, mask);
                while (keys[slot] != null && keys[slot] != invoker) {
                    slot = (slot + 1) & mask;
                }
                if (keys[slot] == null) {
                    keys[slot] = invoker;
                    values[slot] = InvokerStats.of(invoker);
                }
            }
            return new Index(invokers, keys, values);
        }

        /** The statistics of {@code invoker}, or {@code null} when it is not in the table. */
        InvokerStats get(Object invoker) {
            Object[] table = keys;
            int slot = slotOf(invoker, mask);
            while (true) {
                Object key = table[slot];
                if (key == invoker) {
                    return values[slot];
                }
                if (key == null) {
                    return null;
                }
                slot = (slot + 1) & mask;
            }
        }

        private static int slotOf(Object invoker, int mask) {
            int h = System.identityHashCode(invoker);
            return (h ^ (h >>> 16)) & mask;
        }
    }
}
