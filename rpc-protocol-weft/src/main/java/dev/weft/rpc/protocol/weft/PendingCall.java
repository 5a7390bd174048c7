package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Serialization;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;

/**
 * A call registered on a connection and not answered yet: what its answer is decoded as, the
 * result its caller observes, the executor that ends it, and whether its request has been written
 * to the socket (until then the provider cannot have run it). Ended exactly once, by whoever
 * removes it from its connection's pending map (the answer, the deadline, a cancel, or the
 * connection closing); the ending (decoding an answer included) runs on the call's executor, never
 * on the event loop, so what follows the call (filters' end-of-call actions, the caller's callbacks)
 * never runs on a network I/O thread.
 */
final class PendingCall {

    private final Method method;
    private final Type returnType;
    private final Serialization serialization;
    private final Executor executor;
    private final AsyncResult result = AsyncResult.pending();
    private volatile Future<?> deadline;
    private volatile Cancellation.Registration cancelListener = Cancellation.Registration.NONE;
    private volatile boolean written;

    PendingCall(Method method, Type returnType, Serialization serialization, Executor executor) {
        this.method = method;
        this.returnType = returnType;
        this.serialization = serialization;
        this.executor = executor;
    }

    Method method() {
        return method;
    }

    Type returnType() {
        return returnType;
    }

    Serialization serialization() {
        return serialization;
    }

    /** The caller's result: ends when this call does. */
    Result result() {
        return result;
    }

    /** The whole request reached the socket: from now on the provider may run the call. */
    void written() {
        written = true;
    }

    boolean isWritten() {
        return written;
    }

    void deadline(Future<?> task) {
        this.deadline = task;
    }

    void cancelListener(Cancellation.Registration registration) {
        this.cancelListener = registration;
    }

    /** Ends the call with the answer {@code answer} (a value or the service's exception). */
    void complete(Result answer) {
        end(() -> result.complete(answer));
    }

    /** Ends the call with {@code failure}. */
    void fail(RpcException failure) {
        end(() -> result.fail(failure));
    }

    /**
     * Ends the call with the answer in {@code frame} (which this call now owns and releases), decoded
     * on the call's executor: a value or the service's exception end it normally; a non-OK status, an
     * answer that does not decode, or an {@link Error} while decoding end it with a failure.
     */
    void answer(Frame frame, ExceptionCodec exceptions, String remote) {
        end(() -> {
            try {
                Result answer = ResponseCodec.read(frame, serialization, method, returnType, exceptions, remote);
                Throwable exception = answer.getException();
                boolean answered = (frame.status() == Status.OK || frame.status() == Status.SERVICE_ERROR)
                        && !(exception instanceof UndecodableAnswerException);
                if (answered) {
                    result.complete(answer);
                } else {
                    result.fail(exception);
                }
            } catch (RuntimeException | Error e) {
                result.fail(new UndecodableAnswerException("answer of " + method.getName() + " from " + remote
                        + " could not be decoded: " + e, e));
                Results.rethrowIfFatal(e);
            } finally {
                frame.release();
            }
        });
    }

    /** Runs {@code ending} (which decodes and ends the call) on the call's executor. */
    void end(Runnable ending) {
        stopWatching();
        try {
            executor.execute(ending);
        } catch (RejectedExecutionException closed) {
            ending.run(); // the protocol is closing: end it here rather than never
        }
    }

    private void stopWatching() {
        Future<?> task = deadline;
        if (task != null) {
            task.cancel(false);
        }
        cancelListener.remove();
    }
}
