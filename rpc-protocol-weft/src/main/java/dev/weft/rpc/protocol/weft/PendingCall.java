package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Result;
import dev.weft.rpc.protocol.Serialization;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * A call registered on a connection and not answered yet: what its answer is decoded as, the
 * future its caller waits on, and whether its request has been written to the socket (until then
 * the provider cannot have run it). Completed exactly once, by whoever removes it from its
 * connection's pending map (the answer, the deadline, or the connection closing).
 */
final class PendingCall {

    private final Method method;
    private final Type returnType;
    private final Serialization serialization;
    private final CompletableFuture<Result> future = new CompletableFuture<>();
    private volatile Future<?> deadline;
    private volatile boolean written;

    PendingCall(Method method, Type returnType, Serialization serialization) {
        this.method = method;
        this.returnType = returnType;
        this.serialization = serialization;
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

    CompletableFuture<Result> future() {
        return future;
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

    void complete(Result result) {
        Future<?> task = deadline;
        if (task != null) {
            task.cancel(false);
        }
        future.complete(result);
    }
}
