package dev.weft.rpc.common;

import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * A {@link Result} that may still be pending: completed once, by whoever holds it, with a finished
 * result ({@link #complete}: a value or the service's exception) or with the failure that ended
 * the call ({@link #fail}); later completions are ignored. See {@link Result} for what the
 * accessors do before and after.
 *
 * <p>Thread-safe. The stage {@link #completion()} answers is this result's own future: observe it,
 * never complete or cancel it (cancel a call through its {@link Cancellation}).
 */
public final class AsyncResult implements Result {

    private final CompletableFuture<Result> future;

    private AsyncResult(CompletableFuture<Result> future) {
        this.future = future;
    }

    /** A pending result, to be completed with {@link #complete} or {@link #fail}. */
    public static AsyncResult pending() {
        return new AsyncResult(new CompletableFuture<>());
    }

    /** A done result ended by {@code failure} (usually an {@link RpcException}). */
    public static AsyncResult failed(Throwable failure) {
        AsyncResult result = pending();
        result.fail(failure);
        return result;
    }

    /**
     * The result of a service implementation that answered with a future (provider side): it ends
     * with the future's value, or with its exception as the service's exception; never with a
     * failure of the call. A future cancelled by the service answers {@link java.util.concurrent.CancellationException}
     * as the service's exception.
     */
    public static AsyncResult ofAnswer(CompletionStage<?> answer) {
        Objects.requireNonNull(answer, "answer");
        AsyncResult result = pending();
        answer.whenComplete((value, exception) -> result.complete(exception == null ? RpcResult.of(value)
                : RpcResult.ofException(Results.unwrap(exception))));
        return result;
    }

    /** Ends this result with {@code result} (a finished one); false when it had ended already. */
    public boolean complete(Result result) {
        Objects.requireNonNull(result, "result");
        if (!result.isDone()) {
            throw new IllegalArgumentException("result: pending (expected: a finished result; use follow)");
        }
        Throwable failure = Results.failureOf(result);
        if (failure != null) {
            return fail(failure);
        }
        return future.complete(result instanceof AsyncResult async ? async.value() : result);
    }

    /** Ends this result with the call's {@code failure}; false when it had ended already. */
    public boolean fail(Throwable failure) {
        return future.completeExceptionally(Results.unwrap(Objects.requireNonNull(failure, "failure")));
    }

    /** Ends this result as {@code other} ends (now when it is done). */
    public void follow(Result other) {
        if (other.isDone()) {
            complete(other);
        } else {
            other.completion().whenComplete((value, failure) -> {
                if (failure != null) {
                    fail(failure);
                } else {
                    complete(value);
                }
            });
        }
    }

    @Override
    public boolean isDone() {
        return future.isDone();
    }

    @Override
    public CompletionStage<Result> completion() {
        return future;
    }

    @Override
    public Result whenComplete(BiConsumer<? super Result, ? super Throwable> action) {
        Objects.requireNonNull(action, "action");
        if (future.isDone()) {
            Throwable failure = failure();
            try {
                action.accept(failure == null ? value() : null, failure);
                return this;
            } catch (RuntimeException | Error e) {
                Results.rethrowIfFatal(e);
                if (failure != null) {
                    failure.addSuppressed(e);
                    return this;
                }
                return failed(e);
            }
        }
        AsyncResult next = pending();
        future.whenComplete((value, failure) -> {
            Throwable cause = failure == null ? null : Results.unwrap(failure);
            try {
                action.accept(value, cause);
            } catch (RuntimeException | Error e) {
                Results.rethrowIfFatal(e);
                if (cause == null) {
                    next.fail(e);
                    return;
                }
                cause.addSuppressed(e);
            }
            if (cause != null) {
                next.fail(cause);
            } else {
                next.future.complete(value);
            }
        });
        return next;
    }

    @Override
    public boolean isMocked() {
        Result value = value();
        return value != null && value.isMocked();
    }

    /** The finished result this one ended with; null while pending or when a failure ended it. */
    Result value() {
        return future.isCompletedExceptionally() ? null : future.getNow(null);
    }

    /** The failure that ended this result; null while pending or when it ended with a result. */
    Throwable failure() {
        if (!future.isCompletedExceptionally()) {
            return null;
        }
        try {
            future.getNow(null);
            return null;
        } catch (RuntimeException e) {
            return Results.unwrap(e);
        }
    }

    private Result done() {
        if (!future.isDone()) {
            throw new IllegalStateException("result: pending (expected: a done result; observe it with whenComplete or completion())");
        }
        return value();
    }

    @Override
    public Object getValue() {
        Result value = done();
        return value == null ? null : value.getValue();
    }

    @Override
    public Throwable getException() {
        Result value = done();
        return value == null ? failure() : value.getException();
    }

    @Override
    public boolean hasException() {
        return getException() != null;
    }

    @Override
    public Object recreate() throws Throwable {
        Result value = done();
        if (value == null) {
            throw failure();
        }
        return value.recreate();
    }

    @Override
    public String toString() {
        if (!future.isDone()) {
            return "AsyncResult[pending]";
        }
        Result value = value();
        return value != null ? "AsyncResult[" + value + "]" : "AsyncResult[failed: " + failure() + "]";
    }
}
