package dev.weft.rpc.cluster.internal;

import java.util.concurrent.Future;

/**
 * Runs retries later: waits on a timer, then runs the task on a worker so a slow retry never
 * holds the timer. Implementations are thread-safe; {@link #close()} stops all threads.
 */
public interface RetryScheduler extends AutoCloseable {

    /**
     * Runs {@code task} after {@code delayMillis}; cancelling the returned future calls it off if it
     * has not started.
     *
     * @throws java.util.concurrent.RejectedExecutionException when the scheduler is closed
     */
    Future<?> schedule(Runnable task, long delayMillis);

    /** Whether {@link #close()} was called. */
    boolean isClosed();

    /** Cancels every scheduled task and stops the threads; idempotent. */
    @Override
    void close();
}
