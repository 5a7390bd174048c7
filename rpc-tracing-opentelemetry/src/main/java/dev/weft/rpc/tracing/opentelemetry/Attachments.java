package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.RpcInvocation;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;

/**
 * A call's attachments as the carrier of trace context: the propagator reads the caller's context
 * from them on the provider, and writes the attempt's context into them on the consumer (in place
 * on an {@link RpcInvocation}, the kind every proxy makes). Stateless.
 */
final class Attachments {

    static final TextMapGetter<Invocation> GETTER = new TextMapGetter<>() {
        @Override
        public String get(Invocation carrier, String key) {
            return carrier == null ? null : carrier.getAttachment(key);
        }
    };

    static final TextMapSetter<RpcInvocation> SETTER = (carrier, key, value) -> {
        if (carrier != null) {
            carrier.setAttachment(key, value);
        }
    };

    private Attachments() {
    }

    /** {@code invocation} itself when it takes attachments, else a copy that does. */
    static RpcInvocation writable(Invocation invocation) {
        if (invocation instanceof RpcInvocation rpc) {
            return rpc;
        }
        RpcInvocation copy = new RpcInvocation(invocation.getMethodName(), invocation.getParameterTypes(), invocation.getArguments(),
                invocation.getReturnType(), invocation.getGenericReturnType());
        invocation.getAttachments().forEach(copy::setAttachment);
        return copy;
    }
}
