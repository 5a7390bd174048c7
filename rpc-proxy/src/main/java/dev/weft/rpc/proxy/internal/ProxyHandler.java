package dev.weft.rpc.proxy.internal;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;

import java.util.Objects;

/**
 * The consumer-side behaviour every Weft proxy shares, whichever factory made it: turns
 * "method {@code index} called with {@code args}" into an invocation of the invoker and the
 * result back into a return value or a throw, and answers {@code toString}, {@code hashCode}
 * and {@code equals} locally.
 *
 * <p>Public only because generated proxy classes, defined in the interface's package, call it.
 * Immutable and thread-safe: one handler serves every thread calling its proxy.
 */
public final class ProxyHandler {

    private final Invoker<?> invoker;
    private final ServiceMethods methods;

    ProxyHandler(Invoker<?> invoker, ServiceMethods methods) {
        this.invoker = Objects.requireNonNull(invoker, "invoker");
        this.methods = Objects.requireNonNull(methods, "methods");
    }

    /**
     * Calls method {@code index} of the interface through the invoker.
     *
     * @param args the arguments, primitives boxed; {@code null} for none
     * @return the value for the caller: {@code null} for {@code void}, else an instance of the
     *         (boxed) return type, never {@code null} for a primitive return type
     * @throws Throwable what the invoker or the result raised, translated by
     *         {@link ServiceMethod#translate}; an {@link RpcException} for a missing result or a
     *         value that does not fit the return type
     */
    public Object invoke(int index, Object[] args) throws Throwable {
        ServiceMethod method = methods.get(index);
        Object value;
        try {
            Result result = invoker.invoke(new ProxyInvocation(method, args));
            if (result == null) {
                throw noResult(method);
            }
            value = result.recreate();
        } catch (Throwable thrown) {
            throw method.translate(thrown);
        }
        return method.checkReturnValue(value);
    }

    private RpcException noResult(ServiceMethod method) {
        return new RpcException("Result of " + method.qualifiedSignature()
                + ": null (expected: a Result from invoker " + invoker.getUrl() + ")");
    }

    /** {@code "<interface> proxy -> <invoker URL>"}; the URL is read at each call (it may change). */
    public String proxyToString() {
        return methods.type().getName() + " proxy -> " + invoker.getUrl();
    }

    /** The identity hash code of the proxy. */
    public int proxyHashCode(Object proxy) {
        return System.identityHashCode(proxy);
    }

    /** Identity: a proxy equals only itself. */
    public boolean proxyEquals(Object proxy, Object other) {
        return proxy == other;
    }

    ServiceMethods methods() {
        return methods;
    }
}
