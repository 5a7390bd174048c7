package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.filter.CallContext;

import java.util.Objects;

/**
 * A provider as one state of a {@link RegistryDirectory} shows it: the protocol invoker, with
 * the URL the override rules made ({@link #getUrl()}). A rule that changes only parameters
 * makes a new view of the same protocol invoker, so no connection is opened or closed.
 * Statistics follow the protocol invoker ({@link InvokerView}).
 *
 * <p>The protocol invoker still has the refer URL, so a per-call key a rule changed reaches it
 * through the call: when the view's {@value #TIMEOUT_KEY} for the method (method level, then
 * service level) differs from the refer URL's, each call is handed on as a copy carrying it as
 * the {@value #TIMEOUT_KEY} attachment, which protocols and filters read before the URL. A
 * {@value #TIMEOUT_KEY} the caller set wins: as an attachment of the invocation, or of the
 * thread's {@link CallContext} (which the {@code context} filter attaches further down). The
 * caller's invocation is never changed, so each retry reads the view it picked.
 *
 * <p>Immutable and thread-safe; {@link #destroy()} does nothing (the directory owns the invoker).
 */
final class ProviderView<T> implements InvokerView<T> {

    /** Consumer and method key (also the per-call attachment): each attempt's deadline in ms. */
    static final String TIMEOUT_KEY = "timeout";

    private final ReferredProvider<T> provider;
    private final URL url;
    private final CallContext callContext;

    ProviderView(ReferredProvider<T> provider, URL url, CallContext callContext) {
        this.provider = provider;
        this.url = url;
        this.callContext = callContext;
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
        return provider.invoke(withViewTimeout(Objects.requireNonNull(invocation, "invocation")));
    }

    /** {@code invocation}, or a copy carrying this view's timeout when only the view has it. */
    private Invocation withViewTimeout(Invocation invocation) {
        if (isSet(invocation.getAttachment(TIMEOUT_KEY)) || isSet(callContext.get(TIMEOUT_KEY))) {
            return invocation;
        }
        String method = invocation.getMethodName();
        String timeout = url.getMethodParameter(method, TIMEOUT_KEY);
        if (!isSet(timeout) || timeout.equals(provider.invoker().getUrl().getMethodParameter(method, TIMEOUT_KEY))) {
            return invocation;
        }
        RpcInvocation copy = new RpcInvocation(method, invocation.getParameterTypes(), invocation.getArguments(),
                invocation.getReturnType(), invocation.getGenericReturnType());
        invocation.getAttachments().forEach(copy::setAttachment);
        return copy.setAttachment(TIMEOUT_KEY, timeout);
    }

    private static boolean isSet(String value) {
        return value != null && !value.isEmpty();
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
