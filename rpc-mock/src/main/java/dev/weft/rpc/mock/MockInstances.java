package dev.weft.rpc.mock;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The mock-class instances of one {@link MockInvoker}: one per mock class, created (and the class
 * initialised) on the first call that needs it and called through its invoker from then on. A
 * failed creation is not remembered, so the next call tries again. Owned by the mock invoker, so
 * nothing outlives the consumer configuration that named the class.
 *
 * <p>Thread-safe: racing first calls create one instance.
 */
final class MockInstances {

    private final ImplementationInvokers invokers;
    private final Map<Class<?>, Invoker<?>> created = new ConcurrentHashMap<>();

    MockInstances(ImplementationInvokers invokers) {
        this.invokers = Objects.requireNonNull(invokers, "invokers");
    }

    /**
     * The invoker of the instance of {@code binding}'s class serving {@code type}.
     *
     * @throws IllegalStateException when the instance or its invoker cannot be created
     */
    <T> Invoker<T> invokerFor(MockClassBinding binding, Class<T> type, URL url) {
        Invoker<?> invoker = created.computeIfAbsent(binding.type(),
                mockClass -> invokers.invokerFor(type.cast(binding.newInstance()), type, url));
        @SuppressWarnings("unchecked")
        Invoker<T> typed = (Invoker<T>) invoker;
        return typed;
    }

    /** How many instances exist. */
    int size() {
        return created.size();
    }
}
