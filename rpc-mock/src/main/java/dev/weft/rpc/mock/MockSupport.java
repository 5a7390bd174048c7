package dev.weft.rpc.mock;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.Objects;
import java.util.concurrent.ExecutionException;

/**
 * What the mock invokers of one {@link MockClusterWrapper} share: the locked-down value converter
 * and a bounded cache of mock-class invokers (one instance per mock class and interface, at most
 * {@value #MAX_MOCK_INSTANCES}, least recently used evicted).
 *
 * <p>Both are built on first use, not with the wrapper: the converter's Jackson mapper loads
 * some 400 classes (about 100 ms in a fresh JVM) and the cache pulls in Guava's cache and
 * {@code java.util.logging}, while most consumers configure no mock at all. A URL without mock
 * keys, or whose mocks only throw or name a mock class, never loads Jackson; the first
 * {@code return} expression does.
 *
 * <p>Thread-safe; each lazy part is created at most once per instance.
 */
final class MockSupport {

    static final int MAX_MOCK_INSTANCES = 256;

    private final ImplementationInvokers invokers;
    /** Created by {@link #converter()} on first use; guarded by {@code this} for writes. */
    private volatile MockValueConverter converter;
    /** Created by {@link #mockInvokers()} on first use; guarded by {@code this} for writes. */
    private volatile Cache<Key, Invoker<?>> mockInvokers;

    MockSupport(ImplementationInvokers invokers) {
        this.invokers = Objects.requireNonNull(invokers, "invokers");
    }

    /** The converter of {@code return} values, with its own mapper, created on the first call. */
    MockValueConverter converter() {
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

    /** Whether {@link #converter()} has been called, i.e. this instance built a Jackson mapper. */
    boolean converterCreated() {
        return converter != null;
    }

    private Cache<Key, Invoker<?>> mockInvokers() {
        Cache<Key, Invoker<?>> current = mockInvokers;
        if (current == null) {
            synchronized (this) {
                current = mockInvokers;
                if (current == null) {
                    current = CacheBuilder.newBuilder().maximumSize(MAX_MOCK_INSTANCES).build();
                    mockInvokers = current;
                }
            }
        }
        return current;
    }

    /**
     * The cached invoker of an instance of {@code binding}'s class serving {@code type}; created
     * (and the class initialised) on first use.
     *
     * @throws IllegalStateException when the instance or its invoker cannot be created
     */
    <T> Invoker<T> mockInvoker(MockClassBinding binding, Class<T> type, URL url) {
        Key key = new Key(binding.type(), type);
        Invoker<?> invoker;
        try {
            invoker = mockInvokers().get(key, () -> invokers.invokerFor(type.cast(binding.newInstance()), type, url));
        } catch (ExecutionException e) {
            throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
        } catch (com.google.common.util.concurrent.UncheckedExecutionException
                 | com.google.common.util.concurrent.ExecutionError e) {
            Throwable cause = e.getCause();
            if (cause instanceof IllegalStateException ise) {
                throw ise;
            }
            throw new IllegalStateException("mock class " + binding.type().getName() + " could not be created: " + cause, cause);
        }
        @SuppressWarnings("unchecked")
        Invoker<T> typed = (Invoker<T>) invoker;
        return typed;
    }

    /** Number of cached mock instances, for tests and monitoring. */
    long cachedMockInstances() {
        Cache<Key, Invoker<?>> current = mockInvokers;
        return current == null ? 0 : current.size();
    }

    private record Key(Class<?> mockClass, Class<?> serviceInterface) {
    }
}
