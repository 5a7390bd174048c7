package dev.weft.rpc.registry;

import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;

import java.util.Objects;

/**
 * A provider as one state of a {@link RegistryDirectory} shows it: the protocol invoker, with
 * the URL the override rules made ({@link #getUrl()}). A rule that changes only parameters
 * makes a new view of the same protocol invoker, so no connection is opened or closed.
 * Statistics follow the protocol invoker ({@link InvokerView}).
 *
 * <p>The protocol invoker, and the consumer filter chain around it, still have the refer URL, so
 * a per-call key a rule changed ({@code timeout}, {@code actives}, ...) reaches them through the
 * call: when this view's URL differs from the refer URL, the call is handed on with this view's
 * URL as its {@link CallOptions#url()}, which consumer filters and protocols read per call
 * ({@link CallOptions#urlOf}). A {@code timeout} the caller set wins: as an attachment of the
 * invocation, or of the thread's {@code CallContext} (which the {@code context} filter attaches
 * further down). The cluster gives each attempt its own options, so each retry reads the view it
 * picked. A view no rule changed hands the call on as it is, with no per-call work.
 *
 * <p>Immutable and thread-safe; {@link #destroy()} does nothing (the directory owns the invoker).
 */
final class ProviderView<T> implements InvokerView<T> {

    private final ReferredProvider<T> provider;
    private final URL url;
    /** Whether rules made this view's URL differ from the refer URL (else calls pass as they are). */
    private final boolean ruled;

    ProviderView(ReferredProvider<T> provider, URL url) {
        this.provider = provider;
        this.url = url;
        this.ruled = !url.equals(provider.invoker().getUrl());
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
        Objects.requireNonNull(invocation, "invocation");
        URL viewUrl = ruled ? url : null;
        if (invocation.getCallOptions().url() == viewUrl) {
            return provider.invoke(invocation);
        }
        RpcInvocation viewed = invocation instanceof RpcInvocation rpc ? rpc : RpcInvocation.copyOf(invocation);
        viewed.setCallOptions(viewed.getCallOptions().withUrl(viewUrl));
        return provider.invoke(viewed);
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
