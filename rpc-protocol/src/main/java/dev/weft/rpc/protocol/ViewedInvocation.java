package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;

import java.util.Objects;

/**
 * An invocation handed to a referred invoker together with the URL its caller sees that invoker
 * with now. A registry directory refers each provider once (its consumer filter chain is built
 * then, from the refer URL) and shows it through views whose URL the override rules make; a view
 * whose URL changes a key the chain reads per call hands the call on as a {@code ViewedInvocation},
 * so the unchanged chain follows the override from the next call on, with no new chain and no new
 * connection.
 *
 * <p>Consumer filters read per-call keys from {@link #urlOf(Invoker, Invocation)}: the view URL
 * when the call carries one, else the invoker's own. The view URL is a field, not an attachment: it
 * is never sent to the provider and never appears among the attachments. It survives filters that
 * add attachments in place (it is an {@link RpcInvocation}); a filter that replaces the invocation
 * with another object drops it, and the filters after that one read the invoker's URL.
 *
 * <p>Like every {@code RpcInvocation}, it belongs to one call.
 */
public final class ViewedInvocation extends RpcInvocation {

    private final URL viewUrl;

    /** A copy of {@code invocation} (signature, arguments, attachments) carrying {@code viewUrl}. */
    public ViewedInvocation(Invocation invocation, URL viewUrl) {
        super(Objects.requireNonNull(invocation, "invocation").getMethodName(), invocation.getParameterTypes(),
                invocation.getArguments(), invocation.getReturnType(), invocation.getGenericReturnType());
        this.viewUrl = Objects.requireNonNull(viewUrl, "viewUrl");
        invocation.getAttachments().forEach(this::setAttachment);
    }

    /** The URL the caller sees the invoker with for this call. */
    public URL getViewUrl() {
        return viewUrl;
    }

    /**
     * The URL whose keys apply to this call of {@code invoker}: the view URL when
     * {@code invocation} carries one, else {@code invoker.getUrl()}.
     */
    public static URL urlOf(Invoker<?> invoker, Invocation invocation) {
        return invocation instanceof ViewedInvocation viewed ? viewed.viewUrl : invoker.getUrl();
    }

    @Override
    public String toString() {
        return super.toString() + " viewed as " + viewUrl;
    }
}
