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

import java.util.HashMap;
import java.util.Map;

/**
 * Provider filter {@value #NAME}, the other half of {@link ContextFilter}: while the service runs,
 * the invocation's attachments (what the caller sent) are this thread's {@link CallContext}, so
 * service code reads them with {@code CallContext.of(director).get(key)} and calls it makes carry
 * them on; the thread's previous context is restored afterwards. The {@value #TIMEOUT_ATTACHMENT}
 * attachment (one call's deadline, which protocols read) belongs to the hop it came with and is
 * left out, so it does not become the deadline of the service's own calls. An attachment whose
 * value is {@code null} ({@code RpcInvocation.setAttachment(key, null)}) counts as absent. Always
 * on for providers. Thread-safe.
 */
@Activate(group = FilterChain.PROVIDER, order = -10_000)
public final class ServerContextFilter implements Filter, ExtensionDirectorAware {

    /** The extension name. */
    public static final String NAME = "server-context";
    /** The per-call deadline attachment (milliseconds) that protocols read; not passed on. */
    public static final String TIMEOUT_ATTACHMENT = "timeout";

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
        CallContext.Scope scope = context.replaceWith(passedOn(invocation.getAttachments()));
        try {
            return next.invoke(invocation);
        } finally {
            scope.close();
        }
    }

    /** {@code received} without the {@value #TIMEOUT_ATTACHMENT} attachment and those whose value is null. */
    private static Map<String, String> passedOn(Map<String, String> received) {
        boolean unchanged = !received.containsKey(TIMEOUT_ATTACHMENT);
        for (String value : received.values()) {
            unchanged &= value != null;
        }
        if (unchanged) {
            return received;
        }
        Map<String, String> kept = new HashMap<>();
        received.forEach((key, value) -> {
            if (value != null && !key.equals(TIMEOUT_ATTACHMENT)) {
                kept.put(key, value);
            }
        });
        return kept;
    }
}
