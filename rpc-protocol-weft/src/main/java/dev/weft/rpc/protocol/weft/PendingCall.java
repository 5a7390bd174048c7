package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Result;
import dev.weft.rpc.protocol.Serialization;

import java.lang.reflect.Method;
import java.lang.reflect.Type;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;

/**
 * A call sent on a connection and not answered yet: what its answer is decoded as, and the future
 * its caller waits on. Completed exactly once, by whoever removes it from its connection's pending
 * map (the answer, the deadline, or the connection closing).
 */
final class PendingCall {

    private final Method method;
    private final Type returnType;
    private final Serialization serialization;
    private final CompletableFuture<Result> future = new CompletableFuture<>();
    private volatile Future<?> deadline;

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
