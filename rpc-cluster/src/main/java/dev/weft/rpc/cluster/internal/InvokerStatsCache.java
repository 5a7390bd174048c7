package dev.weft.rpc.cluster.internal;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.loadbalance.InvokerStats;

import java.lang.ref.WeakReference;
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
 * answers the same instance as {@code InvokerStats.of}: a table only caches that answer, and an
 * invoker not in a table is looked up in the registry.
 *
 * <p>Tables refer to lists and invokers only weakly (an invoker that left every directory is
 * reclaimed with its statistics even if its old list was indexed here); a statistics object
 * never refers to its invoker. A table whose invokers were collected simply stops matching.
 * {@link #clear()} drops the tables. Thread-safe: tables are immutable behind one volatile
 * field; racing threads may build a table twice, and either is correct.
 */
public final class InvokerStatsCache {

    private volatile Recent recent = Recent.EMPTY;
    /** Identity hash of the last list not found (a collision only makes indexing happen early). */
    private volatile int candidate;

    /** Indexes {@code invokers} if it was also the previous list not found (see the class comment). */
    public void prepare(List<? extends Invoker<?>> invokers) {
        Recent current = recent;
        if (current.first.isFor(invokers) || current.second.isFor(invokers)) {
            return;
        }
        int identity = System.identityHashCode(invokers);
        if (candidate != identity) {
            candidate = identity;
            return;
        }
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

    /** Drops every table, e.g. when the cluster invoker is destroyed. */
    public void clear() {
        recent = Recent.EMPTY;
        candidate = 0;
    }

    /** Whether {@code invokers} is currently indexed; for tests. */
    boolean isIndexed(List<?> invokers) {
        Recent current = recent;
        return current.first.isFor(invokers) || current.second.isFor(invokers);
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

    /**
     * An immutable open-addressing identity table invoker -> statistics, at most half full. A probe
     * compares identity hashes and dereferences a weak key only when they are equal.
     */
    static final class Index {
        static final Index EMPTY = new Index(new WeakReference<>(null), new int[1], new WeakReference<?>[1], new InvokerStats[1]);

        private final WeakReference<List<?>> list;
        private final int[] hashes;
        private final WeakReference<?>[] keys;
        private final InvokerStats[] values;
        private final int mask;

        private Index(WeakReference<List<?>> list, int[] hashes, WeakReference<?>[] keys, InvokerStats[] values) {
            this.list = list;
            this.hashes = hashes;
            this.keys = keys;
            this.values = values;
            this.mask = keys.length - 1;
        }

        static Index of(List<? extends Invoker<?>> invokers) {
            int n = invokers.size();
            int capacity = Integer.highestOneBit(Math.max(1, 2 * n - 1)) << 1;
            int[] hashes = new int[capacity];
            WeakReference<?>[] keys = new WeakReference<?>[capacity];
            InvokerStats[] values = new InvokerStats[capacity];
            int mask = capacity - 1;
            for (int i = 0; i < n; i++) {
                Invoker<?> invoker = Objects.requireNonNull(invokers.get(i), "invoker in the list");
                int hash = System.identityHashCode(invoker);
                int slot = slotOf(hash, mask);
                while (keys[slot] != null && keys[slot].get() != invoker) {
                    slot = (slot + 1) & mask;
                }
                if (keys[slot] == null) {
                    hashes[slot] = hash;
                    keys[slot] = new WeakReference<>(invoker);
                    values[slot] = InvokerStats.of(invoker);
                }
            }
            return new Index(new WeakReference<>(invokers), hashes, keys, values);
        }

        boolean isFor(List<?> invokers) {
            return list.get() == invokers;
        }

        /** The statistics of {@code invoker}, or {@code null} when it is not in the table. */
        InvokerStats get(Object invoker) {
            WeakReference<?>[] table = keys;
            int hash = System.identityHashCode(invoker);
            int slot = slotOf(hash, mask);
            while (true) {
                WeakReference<?> key = table[slot];
                if (key == null) {
                    return null;
                }
                if (hashes[slot] == hash && key.get() == invoker) {
                    return values[slot];
                }
                slot = (slot + 1) & mask;
            }
        }

        private static int slotOf(int hash, int mask) {
            return (hash ^ (hash >>> 16)) & mask;
        }
    }
}
