package dev.weft.rpc.loadbalance.internal;

import com.google.common.collect.MapMaker;
import dev.weft.rpc.common.Invoker;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * Caches one derived value per invoker list, keyed by the identity of the {@code List} instance,
 * so a balancer computes weights, sums and rings once per directory snapshot instead of per call.
 *
 * <p>Lookup: the newest list (the last one a value was computed for: in an application with one
 * service, its current directory snapshot) is checked first, one volatile read and two compares;
 * then the recently used lists ({@link ListSlots}: one slot per list, so the many services
 * sharing a balancer do not evict each other, and nothing is written while they keep their
 * lists); otherwise a weak-keyed identity map is consulted, where a value is reused only
 * while the list still has the same size and the same first and last elements (compared by
 * identity hash, so the cache holds no invoker). These are cheap guards against a list mutated in
 * place (the slots only compare the size); lists are expected to be immutable snapshots, as
 * directories hand them out. Values must refer neither to the list nor to its invokers,
 * so an entry becomes garbage when its list does (the map purges it on later writes); the newest
 * slot keeps at most one list alive.
 *
 * <p>Thread-safe: racing misses may compute the value twice, but the first one stored wins and
 * every caller gets that one.
 *
 * @param <V> the derived value
 */
public final class SnapshotCache<V> {

    private final Function<List<? extends Invoker<?>>, V> factory;
    private final ConcurrentMap<List<?>, Entry<V>> byList = new MapMaker().weakKeys().concurrencyLevel(4).makeMap();
    private final ListSlots<Entry<V>> recent = new ListSlots<>();
    private volatile Newest<V> newest;

    public SnapshotCache(Function<List<? extends Invoker<?>>, V> factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    /** The value for {@code invokers} (non-empty), computing it on the first use of this list instance. */
    public V get(List<? extends Invoker<?>> invokers) {
        Newest<V> first = newest;
        if (first != null && first.list == invokers && first.size == invokers.size()) {
            return first.value;
        }
        Entry<V> entry = recent.get(invokers);
        if (entry != null) {
            return entry.value;
        }
        entry = byList.get(invokers);
        if (entry == null || !entry.matches(invokers)) {
            entry = store(invokers, new Entry<>(invokers, factory.apply(invokers)));
        }
        recent.put(invokers, entry);
        return entry.value;
    }

    /**
     * Stores {@code fresh} for {@code invokers} unless a racing thread stored a valid value first,
     * in which case that one is returned: every caller uses one value per list, so per-list state
     * such as a round-robin position is never split between copies.
     */
    private Entry<V> store(List<? extends Invoker<?>> invokers, Entry<V> fresh) {
        while (true) {
            Entry<V> current = byList.putIfAbsent(invokers, fresh);
            if (current == null) {
                break;
            }
            if (current.matches(invokers)) {
                return current;
            }
            if (byList.replace(invokers, current, fresh)) {
                break;
            }
        }
        newest = new Newest<>(invokers, fresh);
        return fresh;
    }

    /** Number of lists with a cached value (entries of collected lists may linger until cleanup). */
    public int size() {
        return byList.size();
    }

    private static final class Entry<V> {
        final int size;
        final int first;
        final int last;
        final V value;

        Entry(List<? extends Invoker<?>> list, V value) {
            this.size = list.size();
            this.first = System.identityHashCode(list.get(0));
            this.last = System.identityHashCode(list.get(size - 1));
            this.value = value;
        }

        boolean matches(List<? extends Invoker<?>> list) {
            int n = list.size();
            return n == size && System.identityHashCode(list.get(0)) == first
                    && System.identityHashCode(list.get(n - 1)) == last;
        }
    }

    /** The newest list with its entry's size and value copied in, so the first check is one object read. */
    private static final class Newest<V> {
        final List<?> list;
        final int size;
        final V value;

        Newest(List<?> list, Entry<V> entry) {
            this.list = list;
            this.size = entry.size;
            this.value = entry.value;
        }
    }
}
