package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ViewedInvocation;
import dev.weft.rpc.protocol.filter.CallContext;

import java.util.Objects;

/**
 * A provider as one state of a {@link RegistryDirectory} shows it: the protocol invoker, with
 * the URL the override rules made ({@link #getUrl()}). A rule that changes only parameters
 * makes a new view of the same protocol invoker, so no connection is opened or closed.
 * Statistics follow the protocol invoker ({@link InvokerView}).
 *
 * <p>The protocol invoker, and the consumer filter chain around it, still have the refer URL, so
 * a per-call key a rule changed reaches them through the call. When this view's URL differs from
 * the refer URL, for the called method (method level, then service level), in
 * {@value #TIMEOUT_KEY} or {@value #ACTIVES_KEY}, the call is handed on as a
 * {@link ViewedInvocation}: a copy carrying this view's URL, which consumer filters read per call
 * (the {@code actives} filter takes its limit from it), and, when the timeouts differ, this view's
 * {@value #TIMEOUT_KEY} as the call's attachment, which protocols and filters read before the URL.
 * A {@value #TIMEOUT_KEY} the caller set wins: as an attachment of the invocation, or of the
 * thread's {@link CallContext} (which the {@code context} filter attaches further down). The
 * caller's invocation is never changed, so each retry reads the view it picked. A view no rule
 * changed hands the caller's invocation on as it is, with no per-call work.
 *
 * <p>Immutable and thread-safe; {@link #destroy()} does nothing (the directory owns the invoker).
 */
final class ProviderView<T> implements InvokerView<T> {

    /** Consumer and method key (also the per-call attachment): each attempt's deadline in ms. */
    static final String TIMEOUT_KEY = "timeout";
    /** Consumer and method key, declared by rpc-protocol's {@code actives} filter: calls in flight per provider and method. */
    static final String ACTIVES_KEY = "actives";

    private final ReferredProvider<T> provider;
    private final URL url;
    private final CallContext callContext;
    /** Whether rules made this view's URL differ from the refer URL (else calls pass as they are). */
    private final boolean ruled;

    ProviderView(ReferredProvider<T> provider, URL url, CallContext callContext) {
        this.provider = provider;
        this.url = url;
        this.callContext = callContext;
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
        return provider.invoke(ruled ? viewed(invocation) : invocation);
    }

    /** {@code invocation}, or a copy carrying this view when it changes a per-call key of the method. */
    private Invocation viewed(Invocation invocation) {
        String method = invocation.getMethodName();
        URL referUrl = provider.invoker().getUrl();
        String timeout = timeoutToHand(invocation, method, referUrl);
        boolean activesChanged = !Objects.equals(url.getMethodParameter(method, ACTIVES_KEY),
                referUrl.getMethodParameter(method, ACTIVES_KEY));
        if (timeout == null && !activesChanged) {
            return invocation;
        }
        ViewedInvocation copy = new ViewedInvocation(invocation, url);
        if (timeout != null) {
            copy.setAttachment(TIMEOUT_KEY, timeout);
        }
        return copy;
    }

    /** This view's timeout for {@code method} when only the view has it (the caller set none), else {@code null}. */
    private String timeoutToHand(Invocation invocation, String method, URL referUrl) {
        if (isSet(invocation.getAttachment(TIMEOUT_KEY)) || isSet(callContext.get(TIMEOUT_KEY))) {
            return null;
        }
        String timeout = url.getMethodParameter(method, TIMEOUT_KEY);
        return !isSet(timeout) || timeout.equals(referUrl.getMethodParameter(method, TIMEOUT_KEY)) ? null : timeout;
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
