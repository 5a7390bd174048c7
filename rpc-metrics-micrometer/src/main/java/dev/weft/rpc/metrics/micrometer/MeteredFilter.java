package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.protocol.ChainScopedFilter;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

import java.util.Objects;

/**
 * What the filter extensions of this module share: the director that created them (the default
 * one when constructed directly), whose {@link MeterHub} each chain's filter reads. Thread-safe.
 */
abstract class MeteredFilter implements ChainScopedFilter, ExtensionDirectorAware {

    private volatile ExtensionDirector director;

    @Override
    public final void setExtensionDirector(ExtensionDirector director) {
        this.director = Objects.requireNonNull(director, "director");
    }

    @Override
    public final Filter forChain(Invoker<?> invoker) {
        return forChain(MeterHub.of(director), invoker);
    }

    /** The filter of the chain around {@code invoker}, measuring into {@code hub}'s registry. */
    abstract Filter forChain(MeterHub hub, Invoker<?> invoker);
}
