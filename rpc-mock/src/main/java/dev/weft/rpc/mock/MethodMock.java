package dev.weft.rpc.mock;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.internal.MockExpression;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * The checked mock of one method: the URL key it came from, the expression and the compiled
 * answer. Immutable and thread-safe.
 */
final class MethodMock {

    static final String DEGRADATION_MESSAGE = "mocked exception for service degradation";

    private final String key;
    private final MockExpression expression;
    private final Answer answer;

    MethodMock(String key, MockExpression expression, Answer answer) {
        this.key = Objects.requireNonNull(key, "key");
        this.expression = Objects.requireNonNull(expression, "expression");
        this.answer = Objects.requireNonNull(answer, "answer");
    }

    String key() {
        return key;
    }

    MockMode mode() {
        return expression.force() ? MockMode.FORCE : MockMode.FAIL;
    }

    /**
     * The mock's answer; {@code failure} is the call's failure in fail mode, else {@code null}.
     *
     * @throws RuntimeException when the mock itself cannot answer (the caller wraps it)
     */
    Result answer(Invocation invocation, URL url, RpcException failure) {
        return mocked(answer.answer(invocation, url, failure));
    }

    /** {@code result} marked as the mock's answer ({@link Result#isMocked()}), once it ends with one. */
    static Result mocked(Result result) {
        if (result == null || result.isMocked()) {
            return result;
        }
        return Results.then(result, (answer, failure) -> failure != null ? AsyncResult.failed(failure)
                : answer.hasException() ? RpcResult.mockedException(answer.getException()) : RpcResult.mocked(answer.getValue()));
    }

    @Override
    public String toString() {
        return key + "=" + expression.text().strip();
    }

    /** One compiled action. */
    @FunctionalInterface
    interface Answer {
        Result answer(Invocation invocation, URL url, RpcException failure);
    }

    /** {@code return <value>}. */
    static Answer returning(Supplier<Object> value) {
        return (invocation, url, failure) -> RpcResult.of(value.get());
    }

    /** {@code throw}: an {@link RpcException} (business code) naming the method. */
    static Answer throwingRpcException(Class<?> serviceInterface) {
        return (invocation, url, failure) -> RpcResult.ofException(new RpcException(RpcException.BIZ_EXCEPTION,
                DEGRADATION_MESSAGE + ": " + serviceInterface.getName() + "." + RpcInvocation.signature(invocation), failure));
    }

    /** {@code throw <class>}: a fresh instance per call, the call's failure attached as suppressed. */
    static Answer throwing(ThrowableFactory factory, Class<?> serviceInterface) {
        return (invocation, url, failure) -> {
            Throwable thrown = factory.newInstance(DEGRADATION_MESSAGE + ": " + serviceInterface.getName() + "."
                    + RpcInvocation.signature(invocation));
            if (failure != null) {
                thrown.addSuppressed(failure);
            }
            return RpcResult.ofException(thrown);
        };
    }

    /** A mock class, called through the invoker of its one instance in {@code instances}. */
    static <T> Answer delegatingTo(MockClassBinding binding, Class<T> serviceInterface, MockInstances instances) {
        return (invocation, url, failure) -> instances.invokerFor(binding, serviceInterface, url).invoke(invocation);
    }

    /** An answer that fails: the expression did not fit a method unknown at check time. */
    static Answer rejecting(String message) {
        return (invocation, url, failure) -> {
            throw new IllegalStateException(message);
        };
    }
}
