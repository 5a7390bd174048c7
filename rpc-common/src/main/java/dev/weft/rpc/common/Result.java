package dev.weft.rpc.common;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * The outcome of an {@link Invocation}: a value, the exception the service raised, or (once a
 * call is asynchronous) a promise of one of them. A call ends in one of three ways:
 * <ul>
 *   <li>with a value ({@link #getValue()});</li>
 *   <li>with the service's own exception ({@link #getException()}): the provider answered;</li>
 *   <li>with a failure of the call itself, an {@link RpcException} (network, timeout, no
 *       provider, refused, cancelled): {@link #completion()} ends exceptionally with it.</li>
 * </ul>
 *
 * <p><b>Pending results.</b> A result may be pending ({@link #isDone()} false): whoever needs the
 * end of the call (a filter releasing a permit, statistics, a strategy deciding to retry) observes
 * it with {@link #whenComplete} or {@link #completion()}, never by the return of
 * {@code invoke}. The accessors {@link #getValue()}, {@link #getException()},
 * {@link #hasException()} and {@link #recreate()} answer only once the result is done; on a
 * pending result they throw {@link IllegalStateException} (nothing ever waits inside them). On a
 * result that ended with a failure of the call they show that failure as the exception
 * ({@link #recreate()} throws it), so code written for finished results keeps working.
 *
 * <p>Implementations are thread-safe; a finished result never changes.
 */
public interface Result {

    /** The value, or {@code null} when there is none or the call raised an exception. */
    Object getValue();

    /** The exception raised by the service (or the failure that ended the call), or {@code null}. */
    Throwable getException();

    /** Whether {@link #getException()} is non-null. */
    boolean hasException();

    /**
     * The value, or throws the exception: what a proxy returns to the caller.
     *
     * @throws Throwable the carried exception, unchanged
     */
    Object recreate() throws Throwable;

    /**
     * Whether the call has ended; a plain {@link RpcResult} always has. An implementation that may
     * be pending overrides this, {@link #completion()} and {@link #whenComplete}.
     */
    default boolean isDone() {
        return true;
    }

    /**
     * The end of the call: a stage that completes normally with the finished result (a value or
     * the service's exception) or exceptionally with the failure that ended the call (an
     * {@link RpcException}, unwrapped: never a {@code CompletionException}). Do not complete it
     * yourself. A finished {@code RpcResult} answers an already completed stage.
     */
    default CompletionStage<Result> completion() {
        return CompletableFuture.completedFuture(this);
    }

    /**
     * Runs {@code action} once the call has ended, with {@code (result, null)} when it ended with
     * a result (a value or the service's exception), or {@code (null, failure)} when a failure of
     * the call ended it; on a done result it runs now, on the calling thread. This is how a filter
     * observes the end of a call, sync or async alike: return what this method returns.
     *
     * @return a result that ends after {@code action} has run, the same way as this one; when
     *         {@code action} throws and this result ended normally, the returned one fails with
     *         what it threw. On a done result, this result itself (or a failed one)
     */
    default Result whenComplete(BiConsumer<? super Result, ? super Throwable> action) {
        // the default serves done results; an implementation that may be pending overrides it
        Throwable failure = Results.failureOf(this);
        try {
            action.accept(failure == null ? this : null, failure);
            return this;
        } catch (RuntimeException | Error e) {
            Results.rethrowIfFatal(e);
            if (failure != null) {
                failure.addSuppressed(e);
                return this;
            }
            return AsyncResult.failed(e);
        }
    }

    /**
     * Whether the mock ({@code mock=force:...}, {@code mock=fail:...}) answered this call instead of a
     * provider; a call-level filter reads it from the result its {@link #whenComplete} receives.
     */
    default boolean isMocked() {
        return false;
    }
}
