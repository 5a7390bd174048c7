package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcException;

import java.time.Duration;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Waiting for a call in a test, the way a sync caller does: {@code Calls.invoke(invoker, invocation)}
 * returns the finished result of a call that may be pending (a value or the service's exception) or
 * throws the failure that ended it, unchanged, as a sync proxy would. Waits at most
 * {@link #DEFAULT_WAIT}, then fails the test with an {@link AssertionError}. Stateless.
 */
public final class Calls {

    /** The longest wait for one call. */
    public static final Duration DEFAULT_WAIT = Duration.ofSeconds(10);

    private Calls() {
    }

    /** {@code invoker.invoke(invocation)}, waited for: the finished result, or the failure thrown. */
    public static Result invoke(Invoker<?> invoker, Invocation invocation) {
        return await(invoker.invoke(invocation));
    }

    /** {@code result} once it has ended: itself (done) or the finished result; throws the failure that ended it. */
    public static Result await(Result result) {
        return await(result, DEFAULT_WAIT);
    }

    /** As {@link #await(Result)}, waiting at most {@code wait}. */
    public static Result await(Result result, Duration wait) {
        Result finished;
        try {
            finished = result.completion().toCompletableFuture().get(wait.toNanos(), TimeUnit.NANOSECONDS);
        } catch (ExecutionException e) {
            throw sneaky(Results.unwrap(e));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted while waiting for " + result, e);
        } catch (TimeoutException e) {
            throw new AssertionError("call still pending after " + wait + ": " + result);
        } catch (java.util.concurrent.CancellationException e) {
            throw e;
        }
        return finished;
    }

    private static RuntimeException sneaky(Throwable failure) {
        if (failure instanceof RuntimeException unchecked) {
            return unchecked;
        }
        if (failure instanceof Error error) {
            throw error;
        }
        return new RpcException(RpcException.UNKNOWN_EXCEPTION, failure);
    }
}
