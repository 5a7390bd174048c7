package dev.weft.rpc.mock;

import java.util.Objects;

/**
 * What the mock invokers of one {@link MockClusterWrapper} share: the way a mock implementation
 * becomes an {@link dev.weft.rpc.common.Invoker}. Nothing that depends on a service interface is
 * kept here: the value converter (with its Jackson mapper and type caches) and the mock-class
 * instances belong to each {@link MockInvoker}, so a consumer's class loader can be collected once
 * its invokers are gone, however long the wrapper lives.
 *
 * <p>Immutable and thread-safe.
 */
final class MockSupport {

    private final ImplementationInvokers invokers;

    MockSupport(ImplementationInvokers invokers) {
        this.invokers = Objects.requireNonNull(invokers, "invokers");
    }

    ImplementationInvokers invokers() {
        return invokers;
    }
}
