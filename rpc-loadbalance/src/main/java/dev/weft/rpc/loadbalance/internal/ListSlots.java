package dev.weft.rpc.loadbalance.internal;

import java.lang.ref.WeakReference;
import java.util.List;
import java.util.Objects;

/**
 * A small direct-mapped table from invoker-list instances to values, for per-call lookups in
 * balancers, which are singletons shared by every service of the application. Each list gets the
 * slot its identity hash selects, so many services calling one balancer in turn keep their own
 * entries (unless two collide) instead of evicting each other from a single most-recent slot;
 * in steady state nothing is written, so the cores only ever read the table.
 *
 * <p>A hit costs an identity hash, an array read, a weak-reference read and two compares (list
 * identity and size, a cheap guard against a list mutated in place; lists are expected to be
 * immutable snapshots). The table refers to lists weakly, and values must refer neither to the list
 * nor to its invokers, so a list that is no longer used elsewhere is reclaimed with its invokers.
 *
 * <p>Thread-safe without locks: slots hold immutable entries (final fields, so a racy read sees
 * a complete entry); a racing {@link #put} may overwrite another, which only costs a later miss.
 *
 * @param <V> the value type
 */
public final class ListSlots<V> {

    private static final int SLOTS = 64;

    private final Entry<?>[] slots = new Entry<?>[SLOTS];

    /** The value put for this very list instance (and size), or {@code null}. */
    @SuppressWarnings("unchecked")
    public V get(List<?> list) {
        Entry<?> entry = slots[System.identityHashCode(list) & (SLOTS - 1)];
        if (entry != null && entry.list.get() == list && entry.size == list.size()) {
            return (V) entry.value;
        }
        return null;
    }

    /** Remembers {@code value} for {@code list}, replacing whatever shared its slot. */
    public void put(List<?> list, V value) {
        slots[System.identityHashCode(list) & (SLOTS - 1)] = new Entry<>(list, Objects.requireNonNull(value, "value"));
    }

    private static final class Entry<V> {
        final WeakReference<List<?>> list;
        final int size;
        final V value;

        Entry(List<?> list, V value) {
            this.list = new WeakReference<>(list);
            this.size = list.size();
            this.value = value;
        }
    }
}
