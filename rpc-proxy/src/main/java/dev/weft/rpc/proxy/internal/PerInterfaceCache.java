package dev.weft.rpc.proxy.internal;

import java.util.Objects;
import java.util.function.Function;

/**
 * A value computed once per interface and stored with the interface's {@link Class} (through a
 * {@link ClassValue}), so the cache never keeps a discarded class loader alive.
 *
 * <p>Thread-safe. Unlike a bare {@code ClassValue}, whose {@code computeValue} may run in
 * several threads at once, the factory runs at most once per interface: concurrent callers
 * wait for the first one. A factory that throws leaves nothing cached, so the next call retries.
 *
 * @param <V> the cached value
 */
final class PerInterfaceCache<V> {

    private final Function<Class<?>, V> factory;
    private final ClassValue<Slot<V>> slots = new ClassValue<>() {
        @Override
        protected Slot<V> computeValue(Class<?> type) {
            return new Slot<>();
        }
    };

    PerInterfaceCache(Function<Class<?>, V> factory) {
        this.factory = Objects.requireNonNull(factory, "factory");
    }

    /** The value for {@code type}, computing it on first use. */
    public V get(Class<?> type) {
        return slots.get(type).get(type, factory);
    }

    private static final class Slot<V> {
        private volatile V value;

        V get(Class<?> type, Function<Class<?>, V> factory) {
            V result = value;
            if (result == null) {
                synchronized (this) {
                    result = value;
                    if (result == null) {
                        result = Objects.requireNonNull(factory.apply(type), "factory result");
                        value = result;
                    }
                }
            }
            return result;
        }
    }
}
