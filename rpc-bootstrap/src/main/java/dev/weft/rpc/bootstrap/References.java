package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.URL;

import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * The live references of one {@code Weft}, counted: refers of one type with equal consumer URLs
 * share a reference, and it is let go with the last release. Proxies are looked up by identity,
 * since a proxy's own {@code equals} belongs to the service. Thread-safe (one lock).
 */
final class References {

    /** Refers of {@code type} with {@code consumerUrl} (and the same given invokers, or null): one reference. */
    record ReferenceKey(Class<?> type, URL consumerUrl, List<?> givenProviders) {
    }

    /** A proxy and what its refer created (released, newest first, with the last release). */
    record Reference(Object proxy, List<AutoCloseable> acquired) {
    }

    private static final class Counted {
        final ReferenceKey key;
        final Reference reference;
        int refers = 1;

        Counted(ReferenceKey key, Reference reference) {
            this.key = key;
            this.reference = reference;
        }
    }

    private final Map<ReferenceKey, Counted> byKey = new HashMap<>();
    private final Map<Object, Counted> byProxy = new IdentityHashMap<>();

    /** The live reference for {@code key}, counted once more, or null when there is none. */
    synchronized Reference acquire(ReferenceKey key) {
        Counted counted = byKey.get(key);
        if (counted == null) {
            return null;
        }
        counted.refers++;
        return counted.reference;
    }

    /** Keeps {@code created} for {@code key}, or counts the one an identical refer kept first and returns that. */
    synchronized Reference add(ReferenceKey key, Reference created) {
        Counted counted = byKey.get(key);
        if (counted != null) {
            counted.refers++;
            return counted.reference;
        }
        counted = new Counted(key, created);
        byKey.put(key, counted);
        byProxy.put(created.proxy(), counted);
        return created;
    }

    /**
     * Counts one refer of {@code proxy} less; the reference when that was the last (then
     * forgotten), else null.
     *
     * @throws IllegalArgumentException when {@code proxy} is no live reference
     */
    synchronized Reference release(Object proxy) {
        Counted counted = byProxy.get(proxy);
        if (counted == null) {
            throw new IllegalArgumentException("release: " + proxy.getClass().getName() + " (expected: a proxy returned by"
                    + " this Weft's refer and released at most as many times as it was referred)");
        }
        if (--counted.refers > 0) {
            return null;
        }
        byKey.remove(counted.key);
        byProxy.remove(proxy);
        return counted.reference;
    }
}
