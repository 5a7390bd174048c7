package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.RpcInvocation;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapSetter;

/**
 * A call's attachments as the carrier of trace context: the call's span for its attempts, the
 * attempt's span for the provider. Stateless.
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
        return invocation instanceof RpcInvocation rpc ? rpc : RpcInvocation.copyOf(invocation);
    }
}
