package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;

/**
 * A provider as one state of a {@link RegistryDirectory} shows it: the protocol invoker, with
 * the URL the override rules made ({@link #getUrl()}). A rule that changes only parameters
 * makes a new view of the same protocol invoker, so no connection is opened or closed.
 * Statistics follow the protocol invoker ({@link InvokerView}). Immutable and thread-safe; {@link #destroy()} does nothing (the directory owns the invoker).
 */
final class ProviderView<T> implements InvokerView<T> {

    private final ReferredProvider<T> provider;
    private final URL url;

    ProviderView(ReferredProvider<T> provider, URL url) {
        this.provider = provider;
        this.url = url;
    }

    /** The protocol invoker behind this view (what statistics are kept for). */
    @Override
    public Invoker<T> underlying() {
        return provider.invoker();
    }

    ReferredProvider<T> provider() {
        return provider;
    }

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public Class<T> getInterface() {
        return provider.invoker().getInterface();
    }

    @Override
    public boolean isAvailable() {
        return !provider.isDestroyed() && provider.invoker().isAvailable();
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        return provider.invoke(invocation);
    }

    /** Does nothing: the directory that made this view destroys the protocol invoker. */
    @Override
    public void destroy() {
    }

    @Override
    public String toString() {
        return "ProviderView[" + url + "]";
    }
}
