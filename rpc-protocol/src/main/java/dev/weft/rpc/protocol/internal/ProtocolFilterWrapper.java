package dev.weft.rpc.protocol.internal;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;
import dev.weft.rpc.spi.Wrapper;

import java.util.List;
import java.util.Objects;

/**
 * Puts the provider {@link FilterChain} around every exported invoker and the consumer chain
 * around every referred one, for whichever {@link Protocol} is chosen: a wrapper extension of
 * {@code Protocol}, so the loader applies it to {@code weft}, {@code injvm} and third-party
 * protocols alike. The {@code registry} protocol is left alone: it only looks providers up and
 * refers each through a real protocol, which gets the chain.
 *
 * <p>The chain is selected and checked before the inner protocol exports or refers, so a bad
 * {@code filter}, {@code actives} or {@code executes} value fails the call with nothing opened;
 * when a filter then refuses the invoker the inner protocol referred, that invoker is destroyed
 * before the error is thrown. Thread-safe.
 */
@Wrapper(mismatches = "registry")
public final class ProtocolFilterWrapper implements Protocol, ExtensionDirectorAware {

    private final Protocol protocol;
    private volatile ExtensionDirector director;

    /** Wraps {@code protocol}. */
    public ProtocolFilterWrapper(Protocol protocol) {
        this.protocol = Objects.requireNonNull(protocol, "protocol");
    }

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        this.director = Objects.requireNonNull(director, "director");
    }

    @Override
    public int getDefaultPort() {
        return protocol.getDefaultPort();
    }

    @Override
    public <T> Exporter<T> export(Invoker<T> invoker) throws RpcException {
        Objects.requireNonNull(invoker, "invoker");
        List<Filter> filters = select(invoker.getUrl(), FilterChain.PROVIDER);
        Invoker<T> chain;
        try {
            chain = FilterChain.wrap(invoker, filters);
        } catch (RuntimeException e) {
            throw chainFailure(invoker.getUrl(), FilterChain.PROVIDER, e);
        }
        return protocol.export(chain);
    }

    @Override
    public <T> Invoker<T> refer(Class<T> type, URL url) throws RpcException {
        Objects.requireNonNull(url, "url");
        List<Filter> filters = select(url, FilterChain.CONSUMER);
        Invoker<T> referred = protocol.refer(type, url);
        try {
            return FilterChain.wrap(referred, filters);
        } catch (RuntimeException e) {
            referred.destroy(); // what the inner protocol opened for it, nobody else can reach
            throw chainFailure(url, FilterChain.CONSUMER, e);
        }
    }

    @Override
    public void destroy() {
        protocol.destroy();
    }

    private List<Filter> select(URL url, String side) {
        ExtensionDirector owner = director;
        if (owner == null) {
            throw new IllegalStateException("ProtocolFilterWrapper: no director (expected: created by an ExtensionLoader)");
        }
        try {
            return FilterChain.filters(url, side, owner);
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw chainFailure(url, side, e);
        }
    }

    private static RpcException chainFailure(URL url, String side, RuntimeException e) {
        return new RpcException("Cannot build the " + side + " filter chain for " + url + ": " + e.getMessage(), e);
    }

    @Override
    public String toString() {
        return "ProtocolFilterWrapper[" + protocol + "]";
    }
}
