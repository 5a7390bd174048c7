package dev.weft.rpc.mock;

import dev.weft.rpc.mock.internal.MockJson;

/**
 * The value converter of one {@link MockInvoker}, built on first use: its Jackson mapper loads a
 * few hundred classes, while most consumers configure no {@code return} value at all. Each owner
 * has its own mapper, so the deserializers and types it caches die with the owner instead of
 * keeping the service's class loader alive.
 *
 * <p>Thread-safe; the converter is created at most once.
 */
final class LazyConverter {

    private volatile MockValueConverter converter;

    MockValueConverter get() {
        MockValueConverter current = converter;
        if (current == null) {
            synchronized (this) {
                current = converter;
                if (current == null) {
                    current = new MockValueConverter(MockJson.newMapper());
                    converter = current;
                }
            }
        }
        return current;
    }

    /** Whether {@link #get()} has built the converter. */
    boolean created() {
        return converter != null;
    }
}
