package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

/**
 * Provider filter {@value #NAME}, the other half of {@link ContextFilter}: while the service runs,
 * the invocation's attachments (what the caller sent) are this thread's {@link CallContext}, so
 * service code reads them with {@code CallContext.of(director).get(key)} and calls it makes carry
 * them on; the thread's previous context is restored afterwards. Always on for providers.
 * Thread-safe.
 */
@Activate(group = FilterChain.PROVIDER, order = -10_000)
public final class ServerContextFilter implements Filter, ExtensionDirectorAware {

    /** The extension name. */
    public static final String NAME = "server-context";

    private volatile CallContext callContext;

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        callContext = CallContext.of(director);
    }

    @Override
    public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
        CallContext context = callContext;
        if (context == null) {
            throw new IllegalStateException("ServerContextFilter: no director (expected: created by an ExtensionLoader)");
        }
        CallContext.Scope scope = context.replaceWith(invocation.getAttachments());
        try {
            return next.invoke(invocation);
        } finally {
            scope.close();
        }
    }
}
