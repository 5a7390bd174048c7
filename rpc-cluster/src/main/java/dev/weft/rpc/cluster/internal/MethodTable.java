package dev.weft.rpc.cluster.internal;

import java.util.Objects;

/**
 * An immutable map from method names to values, read on every call: an open-addressing table
 * probed with the name's cached {@code hashCode()}, comparing by identity first (callers pass
 * the same interned names call after call) and then by {@code equals}. It is cheaper than
 * {@code ConcurrentHashMap.get} because nothing in it can change; adding copies the table
 * ({@link #with}), so it suits the small key sets that only grow while an application warms up.
 *
 * <p>Thread-safe: immutable. Writers that share one table behind a field serialise their
 * {@link #with} calls themselves.
 *
 * @param <V> the value type
 */
public final class MethodTable<V> {

    private static final MethodTable<?> EMPTY = new MethodTable<>(new String[2], new Object[2], 0);

    private final String[] keys;
    private final Object[] values;
    private final int size;

    private MethodTable(String[] keys, Object[] values, int size) {
        this.keys = keys;
        this.values = values;
        this.size = size;
    }

    /** The table without entries. */
    @SuppressWarnings("unchecked")
    public static <V> MethodTable<V> empty() {
        return (MethodTable<V>) EMPTY;
    }

    /** The value of {@code method}, or {@code null}. */
    @SuppressWarnings("unchecked")
    public V get(String method) {
        String[] table = keys;
        int mask = table.length - 1;
        int slot = slotOf(method.hashCode(), mask);
        while (true) {
            String key = table[slot];
            if (key == null) {
                return null;
            }
            if (key == method || key.equals(method)) {
                return (V) values[slot];
            }
            slot = (slot + 1) & mask;
        }
    }

    /** Number of entries. */
    public int size() {
        return size;
    }

    /**
     * A table with {@code method} mapped to {@code value} (replacing a previous value), at most
     * half full.
     */
    public MethodTable<V> with(String method, V value) {
        Objects.requireNonNull(method, "method");
        Objects.requireNonNull(value, "value");
        int capacity = keys.length;
        while (2 * (size + 1) > capacity) {
            capacity <<= 1;
        }
        String[] newKeys = new String[capacity];
        Object[] newValues = new Object[capacity];
        int newSize = 0;
        for (int i = 0; i < keys.length; i++) {
            if (keys[i] != null && !keys[i].equals(method)) {
                put(newKeys, newValues, keys[i], values[i]);
                newSize++;
            }
        }
        put(newKeys, newValues, method, value);
        return new MethodTable<>(newKeys, newValues, newSize + 1);
    }

    private static void put(String[] keys, Object[] values, String key, Object value) {
        int mask = keys.length - 1;
        int slot = slotOf(key.hashCode(), mask);
        while (keys[slot] != null) {
            slot = (slot + 1) & mask;
        }
        keys[slot] = key;
        values[slot] = value;
    }

    private static int slotOf(int hash, int mask) {
        return (hash ^ (hash >>> 16)) & mask;
    }
}
