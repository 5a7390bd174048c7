package dev.weft.rpc.common;

import java.util.concurrent.CompletionException;
import java.util.concurrent.ExecutionException;
import java.util.function.BiFunction;

/**
 * Helpers to continue a call after a {@link Result} ends, with one code path whether it is done
 * already or pending: {@link #then} runs the continuation at once on a done result (no future, no
 * thread hop) and when it completes on a pending one. Stateless; thread-safe.
 */
public final class Results {

    private Results() {
    }

    /**
     * What follows {@code result}: {@code next} applied to {@code (result, null)} when it ended with
     * a result, {@code (null, failure)} when a failure ended it. On a done result {@code next} runs
     * now and its result is returned; on a pending one the returned result is pending and ends as
     * the one {@code next} returns. A {@code next} that throws (or returns {@code null}) ends the
     * returned result with that failure. Every returned result completes exactly once.
     */
    public static Result then(Result result, BiFunction<? super Result, ? super Throwable, ? extends Result> next) {
        if (result.isDone()) {
            return apply(next, doneValue(result), failureOf(result));
        }
        AsyncResult out = AsyncResult.pending();
        result.completion().whenComplete((value, failure) -> {
            Result following = apply(next, failure == null ? value : null, failure == null ? null : unwrap(failure));
            out.follow(following);
        });
        return out;
    }

    private static Result apply(BiFunction<? super Result, ? super Throwable, ? extends Result> next, Result value, Throwable failure) {
        try {
            Result following = next.apply(value, failure);
            if (following == null) {
                return AsyncResult.failed(new RpcException("continuation returned null (expected: a Result)"));
            }
            return following;
        } catch (RuntimeException | Error e) {
            rethrowIfFatal(e);
            return AsyncResult.failed(e);
        }
    }

    /**
     * The failure that ended a done {@code result} (its {@link Result#completion()} ended
     * exceptionally), else {@code null}: {@code null} for a pending result and for one that ended
     * with a value or the service's exception.
     */
    public static Throwable failureOf(Result result) {
        if (result instanceof RpcResult) {
            return null;
        }
        if (result instanceof AsyncResult async) {
            return async.failure();
        }
        if (!result.isDone()) {
            return null;
        }
        try {
            result.completion().toCompletableFuture().getNow(null);
            return null;
        } catch (CompletionException | java.util.concurrent.CancellationException e) {
            return unwrap(e);
        }
    }

    /** The finished result a done {@code result} ended with, or null when a failure ended it. */
    private static Result doneValue(Result result) {
        if (result instanceof AsyncResult async) {
            return async.value();
        }
        return failureOf(result) == null ? result : null;
    }

    /**
     * {@code result}, unless it is done and ended by a failure, which is thrown instead (unchecked
     * as it is, a checked one wrapped in an {@link RpcException}): for invokers whose callers expect
     * a failure known at return to be thrown, as {@link Invoker#invoke} allows.
     */
    public static Result throwIfFailed(Result result) {
        Throwable failure = result.isDone() ? failureOf(result) : null;
        if (failure == null) {
            return result;
        }
        if (failure instanceof RuntimeException unchecked) {
            throw unchecked;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        throw new RpcException(RpcException.UNKNOWN_EXCEPTION, failure);
    }

    /** {@code failure} without the {@link CompletionException}/{@link ExecutionException} wrappers of futures. */
    public static Throwable unwrap(Throwable failure) {
        Throwable current = failure;
        while ((current instanceof CompletionException || current instanceof ExecutionException) && current.getCause() != null) {
            current = current.getCause();
        }
        return current;
    }

    /** Rethrows JVM errors (out of memory, stack overflow) that nothing should turn into a call's failure. */
    public static void rethrowIfFatal(Throwable failure) {
        if (failure instanceof VirtualMachineError fatal) {
            throw fatal;
        }
    }
}
