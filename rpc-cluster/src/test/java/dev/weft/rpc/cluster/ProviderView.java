package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.URL;

/**
 * A provider shown under its URL with a query added, as a registry directory shows providers with
 * override rules applied: a rule that changes the URL makes a new view of the same provider.
 */
final class ProviderView<T> implements InvokerView<T> {

    private final Invoker<T> provider;
    private final URL url;

    ProviderView(Invoker<T> provider, String query) {
        this.provider = provider;
        this.url = URL.valueOf(provider.getUrl() + (provider.getUrl().getParameters().isEmpty() ? "?" : "&") + query);
    }

    @Override
    public Invoker<T> underlying() {
        return provider;
    }

    @Override
    public Result invoke(Invocation invocation) {
        return provider.invoke(invocation);
    }

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public Class<T> getInterface() {
        return provider.getInterface();
    }

    @Override
    public boolean isAvailable() {
        return provider.isAvailable();
    }

    @Override
    public void destroy() {
        provider.destroy();
    }
}
