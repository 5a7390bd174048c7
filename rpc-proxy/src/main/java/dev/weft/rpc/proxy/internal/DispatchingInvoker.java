package dev.weft.rpc.proxy.internal;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;

import java.util.Objects;
import java.util.concurrent.CompletionStage;

/**
 * The provider-side {@link Invoker} of both factories: resolves the invocation to a
 * {@link ServiceMethod} (directly when it came from a Weft proxy of the same interface, else by
 * name and parameter types), checks the arguments, and lets a {@link MethodDispatcher} call the
 * implementation.
 *
 * <p>Whatever the implementation throws is returned in the {@link Result}. A method returning
 * {@code CompletableFuture<T>} or {@code CompletionStage<T>} answers a pending result that ends
 * with the future's value, or its exception as the service's exception; no thread waits for it, and
 * cancelling the call ({@link dev.weft.rpc.common.CallOptions#cancellation()}) cancels the future. An invocation that
 * cannot be dispatched (unknown method, arguments that do not fit, invoker destroyed) fails
 * with an {@link RpcException}; a destroyed invoker's is {@link RpcException#NOT_PROCESSED}, since
 * the implementation did not run. Thread-safe.
 *
 * @param <T> the service interface
 */
final class DispatchingInvoker<T> implements Invoker<T> {

    private final T impl;
    private final Class<T> type;
    private final URL url;
    private final ServiceMethods methods;
    private final MethodDispatcher dispatcher;
    private final String factoryName;
    private volatile boolean destroyed;

    /** {@code factoryName} ({@code javassist}, {@code jdk}) only shows in {@link #toString()}. */
    DispatchingInvoker(String factoryName, T impl, Class<T> type, URL url, MethodDispatcher dispatcher) {
        this.factoryName = Objects.requireNonNull(factoryName, "factoryName");
        this.impl = Objects.requireNonNull(impl, "impl");
        this.type = Objects.requireNonNull(type, "type");
        this.url = Objects.requireNonNull(url, "url");
        this.dispatcher = Objects.requireNonNull(dispatcher, "dispatcher");
        this.methods = ServiceMethods.of(type);
    }

    @Override
    public Class<T> getInterface() {
        return type;
    }

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public boolean isAvailable() {
        return !destroyed;
    }

    @Override
    public void destroy() {
        destroyed = true;
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        if (destroyed) {
            throw destroyedException();
        }
        ServiceMethod method = resolve(invocation);
        Object[] args = invocation.getArguments();
        method.checkArguments(args);
        Object value;
        try {
            value = dispatcher.dispatch(impl, method.index(), args);
        } catch (Throwable thrown) {
            return RpcResult.ofException(thrown);
        }
        if (method.isAsync() && value instanceof CompletionStage<?> answer) {
            // the implementation answers later: the result ends with its future, and holds no thread meanwhile
            cancelWithTheCall(answer, invocation.getCallOptions().cancellation());
            return AsyncResult.ofAnswer(answer);
        }
        // Allocated outside the try block, where the JIT can remove it by escape analysis.
        return RpcResult.of(value);
    }

    /** A call cancelled (by its consumer, or its deadline on the provider) cancels the implementation's future. */
    private static void cancelWithTheCall(CompletionStage<?> answer, Cancellation cancellation) {
        if (cancellation == Cancellation.NONE) {
            return;
        }
        Cancellation.Registration registration = cancellation.onCancel(() -> {
            try {
                answer.toCompletableFuture().cancel(true);
            } catch (UnsupportedOperationException notAFuture) {
                // a stage that cannot be cancelled runs to its end; its answer is not sent
            }
        });
        answer.whenComplete((value, failure) -> registration.remove());
    }

    private ServiceMethod resolve(Invocation invocation) {
        if (invocation instanceof ProxyInvocation) {
            ServiceMethod method = ((ProxyInvocation) invocation).resolvedMethod(methods);
            if (method != null) {
                return method;
            }
        }
        return resolveByName(Objects.requireNonNull(invocation, "invocation"));
    }

    private ServiceMethod resolveByName(Invocation invocation) {
        ServiceMethod method = methods.find(invocation.getMethodName(), invocation.getParameterTypes());
        if (method == null) {
            throw new RpcException("Method: " + type.getName() + '.' + RpcInvocation.signature(invocation)
                    + " (expected: one of " + methods.signatures() + ")");
        }
        return method;
    }

    private RpcException destroyedException() {
        return new RpcException(RpcException.NOT_PROCESSED, "Invoker of " + type.getName()
                + ": destroyed (expected: a live invoker; not run, safe to retry) " + url);
    }

    @Override
    public String toString() {
        return factoryName + " invoker of " + type.getName() + " -> " + impl.getClass().getName() + " " + url;
    }
}
