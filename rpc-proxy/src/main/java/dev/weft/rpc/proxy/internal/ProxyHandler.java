package dev.weft.rpc.proxy.internal;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.ThreadlessExecutor;
import dev.weft.rpc.common.RpcException;

import java.util.Objects;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;

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
     * <p>A sync method is an async call waited for on the caller's thread: the call's options carry a
     * {@link ThreadlessExecutor}, so the protocol hands the answer to this thread, which decodes it
     * (one thread hop fewer than a pool in between); an interrupt while waiting cancels the call. A
     * method returning {@code CompletableFuture<T>} or {@code CompletionStage<T>} returns at once a
     * {@code CompletableFuture} completed with the value, or exceptionally with the service's
     * exception or the call's {@link RpcException}; cancelling it cancels the call (its attempts in
     * flight, and the provider is told).
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
        if (method.isAsync()) {
            return invokeAsync(method, args);
        }
        Object value;
        try {
            ProxyInvocation invocation = new ProxyInvocation(method, args);
            // a task arriving after the call ended (an attempt that lost a race) only finishes the
            // attempt's bookkeeping, nobody waits for it: it runs where it was submitted
            ThreadlessExecutor executor = new ThreadlessExecutor(Runnable::run);
            Cancellation cancellation = Cancellation.create();
            invocation.setCallOptions(CallOptions.DEFAULT.withExecutor(executor).withCancellation(cancellation));
            Result result = invoker.invoke(invocation);
            if (result == null) {
                throw noResult(method);
            }
            executor.await(result, cancellation);
            value = result.recreate();
        } catch (Throwable thrown) {
            throw method.translate(thrown);
        }
        return method.checkReturnValue(value);
    }

    private CompletableFuture<Object> invokeAsync(ServiceMethod method, Object[] args) {
        CompletableFuture<Object> future = new CompletableFuture<>();
        Cancellation cancellation = Cancellation.create();
        Result result;
        try {
            ProxyInvocation invocation = new ProxyInvocation(method, args);
            invocation.setCallOptions(CallOptions.DEFAULT.withCancellation(cancellation));
            result = invoker.invoke(invocation);
            if (result == null) {
                throw noResult(method);
            }
        } catch (RuntimeException | Error thrown) {
            Results.rethrowIfFatal(thrown);
            future.completeExceptionally(thrown);
            return future;
        }
        result.completion().whenComplete((answer, failure) -> {
            if (failure != null) {
                future.completeExceptionally(Results.unwrap(failure));
            } else if (answer.hasException()) {
                future.completeExceptionally(answer.getException());
            } else {
                try {
                    future.complete(method.checkAsyncValue(answer.getValue()));
                } catch (RpcException misfit) {
                    future.completeExceptionally(misfit);
                }
            }
        });
        future.whenComplete((value, failure) -> {
            if (failure instanceof CancellationException) {
                cancellation.cancel();
            }
        });
        return future;
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
