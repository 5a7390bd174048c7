package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;

import java.util.Objects;
import java.util.function.Function;

/**
 * What a {@link FakeProvider} does with one call: answer, fail the way a service fails, or fail
 * the way the network fails.
 *
 * <p>The factories cover the cases a cluster or balancer treats differently:
 * <ul>
 *   <li>{@link #value}, {@link #computed}, {@link #providerName}: a normal answer;</li>
 *   <li>{@link #serviceException}: the service threw; the result carries the exception (as a real
 *       provider returns it) and no strategy retries it;</li>
 *   <li>{@link #networkError}, {@link #timeout}, {@link #notProcessed}: thrown {@link RpcException}s
 *       with those codes, which {@code failover} retries on another provider;</li>
 *   <li>{@link #rpcFailure(int)}: any other {@link RpcException} code ({@code BIZ_EXCEPTION} is a
 *       business failure, never retried);</li>
 *   <li>{@link #throwing}: a given exception, thrown as it is.</li>
 * </ul>
 * Failures name the provider and the method, so a failed assertion says where they came from.
 * Implementations must be thread-safe when the provider is called from several threads; those
 * returned here are.
 */
@FunctionalInterface
public interface Reply {

    /**
     * The outcome of {@code invocation} received by {@code provider}.
     *
     * @throws RpcException to fail the call the way the transport would
     */
    Result reply(Invocation invocation, FakeProvider<?> provider) throws RpcException;

    /** Answers {@code value} (may be {@code null}). */
    static Reply value(Object value) {
        return (invocation, provider) -> RpcResult.of(value);
    }

    /** Answers what {@code answer} computes from the invocation (its arguments, its method). */
    static Reply computed(Function<? super Invocation, ?> answer) {
        Objects.requireNonNull(answer, "answer");
        return (invocation, provider) -> RpcResult.of(answer.apply(invocation));
    }

    /** Answers the provider's {@link FakeProvider#name() name}: the default of every fake. */
    static Reply providerName() {
        return (invocation, provider) -> RpcResult.of(provider.name());
    }

    /**
     * The service threw {@code exception}: a result carrying it, which a proxy rethrows to the
     * caller and no cluster strategy retries.
     */
    static Reply serviceException(Throwable exception) {
        Objects.requireNonNull(exception, "exception");
        return (invocation, provider) -> RpcResult.ofException(exception);
    }

    /** Throws an {@link RpcException} with {@link RpcException#NETWORK_EXCEPTION}: retried by {@code failover}. */
    static Reply networkError() {
        return rpcFailure(RpcException.NETWORK_EXCEPTION);
    }

    /** Throws an {@link RpcException} with {@link RpcException#TIMEOUT_EXCEPTION}: retried by {@code failover}. */
    static Reply timeout() {
        return rpcFailure(RpcException.TIMEOUT_EXCEPTION);
    }

    /** Throws an {@link RpcException} with {@link RpcException#NOT_PROCESSED}: the call never ran. */
    static Reply notProcessed() {
        return rpcFailure(RpcException.NOT_PROCESSED);
    }

    /**
     * Throws an {@link RpcException} with {@code code} (one of its constants) and a message such as
     * {@code scripted network failure at fake provider a (method greet)}.
     *
     * @throws IllegalArgumentException for a code {@link RpcException} does not define
     */
    static Reply rpcFailure(int code) {
        String kind = RpcCodes.describe(code);
        return (invocation, provider) -> {
            throw new RpcException(code, "scripted " + kind + " at fake provider " + provider.name()
                    + " (method " + invocation.getMethodName() + ")");
        };
    }

    /** Throws {@code exception} itself, every time this reply is used. */
    static Reply throwing(RuntimeException exception) {
        Objects.requireNonNull(exception, "exception");
        return (invocation, provider) -> {
            throw exception;
        };
    }

    /**
     * How a real provider reports {@code failure}: an {@link RpcException} is thrown (the transport
     * failed), anything else is the service's exception carried in the result.
     */
    static Reply failure(Throwable failure) {
        Objects.requireNonNull(failure, "failure");
        return failure instanceof RpcException ? throwing((RpcException) failure) : serviceException(failure);
    }
}
