package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invoker;

/**
 * One service made callable by a {@link Protocol}. Thread-safe; {@link #unexport()} is idempotent.
 */
public interface Exporter<T> {

    /** The invoker calls are delivered to (with the provider filter chain around it). */
    Invoker<T> getInvoker();

    /** Stops taking calls for this service and releases what it alone holds. */
    void unexport();
}
