package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Consumer filter {@value #NAME}: attaches to every call what the provider should know about its
 * caller, as string attachments of the {@link Invocation}, which protocols carry to the provider
 * ({@code injvm} hands the invocation over, {@code weft} sends the map in the request):
 * <ul>
 *   <li>the attachments of this thread's {@link CallContext} (trace ids set with
 *       {@code CallContext.with}, or those of the call this thread is serving, so they travel on
 *       through nested calls), except {@value #APPLICATION_KEY};</li>
 *   <li>{@value #APPLICATION_KEY}: the calling application, the consumer URL's
 *       {@value #APPLICATION_KEY} parameter, when present;</li>
 *   <li>attachments already on the invocation win over both.</li>
 * </ul>
 * An {@link RpcInvocation} receives them in place; another {@code Invocation} is copied into one.
 * Always on for consumers; outermost. Thread-safe; the only state is the director's
 * {@link CallContext}.
 */
@Activate(group = FilterChain.CONSUMER, order = -10_000)
public final class ContextFilter implements Filter {

    /** The extension name. */
    public static final String NAME = "context";
    /** URL key (consumer) and attachment: the calling application's name. */
    public static final String APPLICATION_KEY = "application";

    private final CallContext callContext = new CallContext();

    CallContext callContext() {
        return callContext;
    }

    @Override
    public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
        Map<String, String> fromThread = callContext.attachments();
        String application = next.getUrl().getParameter(APPLICATION_KEY);
        boolean hasApplication = application != null && !application.isEmpty();
        if (fromThread.isEmpty() && !hasApplication) {
            return next.invoke(invocation);
        }
        Map<String, String> attachments = new LinkedHashMap<>(fromThread);
        attachments.remove(APPLICATION_KEY);
        if (hasApplication) {
            attachments.put(APPLICATION_KEY, application);
        }
        attachments.putAll(invocation.getAttachments());
        return next.invoke(withAttachments(invocation, attachments));
    }

    /** {@code invocation} with {@code attachments} set: in place on an {@link RpcInvocation}, else on a copy. */
    static Invocation withAttachments(Invocation invocation, Map<String, String> attachments) {
        RpcInvocation target = invocation instanceof RpcInvocation
                ? (RpcInvocation) invocation
                : new RpcInvocation(invocation.getMethodName(), invocation.getParameterTypes(), invocation.getArguments(),
                        invocation.getReturnType(), invocation.getGenericReturnType());
        attachments.forEach(target::setAttachment);
        return target;
    }
}
