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
 * <p>Thread-safe.
 */
final class MockSupport {

    static final int MAX_MOCK_INSTANCES = 256;

    private final MockValueConverter converter;
    private final ImplementationInvokers invokers;
    private final Cache<Key, Invoker<?>> mockInvokers = CacheBuilder.newBuilder()
            .maximumSize(MAX_MOCK_INSTANCES)
            .build();

    MockSupport(ImplementationInvokers invokers) {
        this.invokers = Objects.requireNonNull(invokers, "invokers");
        this.converter = new MockValueConverter(MockJson.newMapper());
    }

    MockValueConverter converter() {
        return converter;
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
            invoker = mockInvokers.get(key, () -> invokers.invokerFor(type.cast(binding.newInstance()), type, url));
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
        return mockInvokers.size();
    }

    private record Key(Class<?> mockClass, Class<?> serviceInterface) {
    }
}
