package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.protocol.ChainScopedFilter;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;
import io.opentelemetry.api.common.Attributes;

import java.util.Objects;

/**
 * What the filter extensions of this module share: the director that created them (the default
 * one when constructed directly), whose {@link TraceHub} each chain's filter reads, and the span
 * naming of the chain's service. Thread-safe.
 */
abstract class TracedFilter implements ChainScopedFilter, ExtensionDirectorAware {

    private volatile ExtensionDirector director;

    @Override
    public final void setExtensionDirector(ExtensionDirector director) {
        this.director = Objects.requireNonNull(director, "director");
    }

    @Override
    public final Filter forChain(Invoker<?> invoker) {
        return forChain(TraceHub.of(director), new ServiceSpans(invoker.getInterface(), chainAttributes(invoker)), invoker);
    }

    /** What every span of the chain around {@code invoker} carries besides the RPC attributes; none by default. */
    Attributes chainAttributes(Invoker<?> invoker) {
        return Attributes.empty();
    }

    /** The filter of the chain around {@code invoker}, tracing with {@code hub}'s telemetry. */
    abstract Filter forChain(TraceHub hub, ServiceSpans spans, Invoker<?> invoker);
}
