package dev.weft.rpc.proxy.internal;

import dev.weft.rpc.common.RpcInvocation;

/**
 * The invocation a Weft proxy creates: an ordinary {@link RpcInvocation} that also remembers
 * which {@link ServiceMethod} it came from (for a method returning {@code CompletableFuture<T>}, the
 * invocation's return type is {@code T}, the type of the value the call carries), so an invoker built for the same interface skips
 * the lookup by name and parameter types. Layers in between see a plain {@code RpcInvocation};
 * an invoker whose method table does not hold that very method falls back to the lookup.
 *
 * <p>Not thread-safe (attachments are mutable), like every invocation: it belongs to one call.
 */
final class ProxyInvocation extends RpcInvocation {

    private final ServiceMethod method;

    ProxyInvocation(ServiceMethod method, Object[] args) {
        // an async method's call carries its value type, T, as its return type: what it is decoded as
        super(method.name(), method.parameterTypes(), args, method.isAsync() ? method.valueClass() : method.returnType(),
                method.valueType());
        this.method = method;
    }

    /** The resolved method when {@code expected} holds it (the proxy's interface), else {@code null}. */
    ServiceMethod resolvedMethod(ServiceMethods expected) {
        int index = method.index();
        return index < expected.size() && expected.get(index) == method ? method : null;
    }
}
