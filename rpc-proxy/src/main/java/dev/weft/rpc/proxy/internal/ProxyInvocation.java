package dev.weft.rpc.proxy.internal;

import dev.weft.rpc.common.RpcInvocation;

/**
 * The invocation a Weft proxy creates: an ordinary {@link RpcInvocation} that also remembers
 * which {@link ServiceMethod} it came from, so an invoker built for the same interface skips
 * the lookup by name and parameter types. Layers in between see a plain {@code RpcInvocation};
 * an invoker that does not recognise the table falls back to the lookup.
 *
 * <p>Not thread-safe (attachments are mutable), like every invocation: it belongs to one call.
 */
final class ProxyInvocation extends RpcInvocation {

    private final ServiceMethods table;
    private final ServiceMethod method;

    ProxyInvocation(ServiceMethods table, ServiceMethod method, Object[] args) {
        super(method.name(), method.parameterTypes(), args, method.returnType(), method.genericReturnType());
        this.table = table;
        this.method = method;
    }

    /** The resolved method when this invocation was made against {@code expected}, else {@code null}. */
    ServiceMethod resolvedMethod(ServiceMethods expected) {
        return table == expected ? method : null;
    }
}
