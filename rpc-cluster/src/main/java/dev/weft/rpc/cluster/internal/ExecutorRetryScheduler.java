package dev.weft.rpc.cluster.internal;

import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * The {@link RetryScheduler} on JDK executors: one timer thread ({@code <name>-timer-N}) hands due
 * tasks to a small bounded worker pool ({@code <name>-worker-N}). Both are daemon threads that
 * start on first use and stop after a minute idle. When the worker queue is full the task is put
 * back on the timer for another delay instead of being lost or blocking the timer.
 *
 * <p>Thread-safe. {@link #close()} cancels what is scheduled and waits briefly for the threads.
 */
public final class ExecutorRetryScheduler implements RetryScheduler {

    private static final Logger LOG = LoggerFactory.getLogger(ExecutorRetryScheduler.class);
    private static final long IDLE_SECONDS = 60;

    private final ScheduledThreadPoolExecutor timer;
    private final ThreadPoolExecutor workers;
    private volatile boolean closed;

    /**
     * @param name        thread name prefix, e.g. {@code weft-failback}
     * @param workerCount worker threads (the pool's bound)
     * @param queueBound  tasks waiting for a worker before they are deferred
     */
    public ExecutorRetryScheduler(String name, int workerCount, int queueBound) {
        timer = new ScheduledThreadPoolExecutor(1, new ThreadFactoryBuilder().setNameFormat(name + "-timer-%d").setDaemon(true).build());
        timer.setRemoveOnCancelPolicy(true);
        timer.setKeepAliveTime(IDLE_SECONDS, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
        workers = new ThreadPoolExecutor(workerCount, workerCount, IDLE_SECONDS, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(queueBound), new ThreadFactoryBuilder().setNameFormat(name + "-worker-%d").setDaemon(true).build(),
                new ThreadPoolExecutor.AbortPolicy());
        workers.allowCoreThreadTimeOut(true);
    }

    @Override
    public Future<?> schedule(Runnable task, long delayMillis) {
        if (closed) {
            throw new RejectedExecutionException("retry scheduler is closed");
        }
        return timer.schedule(() -> handOver(task, delayMillis), delayMillis, TimeUnit.MILLISECONDS);
    }

    /** Runs {@code task} on a worker, or, when every worker is busy and the queue full, puts it back on the timer. */
    private void handOver(Runnable task, long delayMillis) {
        try {
            workers.execute(task);
        } catch (RejectedExecutionException busy) {
            if (!closed) { // once closed, the retry is dropped (and counted by its owner)
                LOG.debug("Retry workers busy; deferring a retry by {} ms", delayMillis);
                timer.schedule(() -> handOver(task, delayMillis), delayMillis, TimeUnit.MILLISECONDS);
            }
        }
    }

    @Override
    public boolean isClosed() {
        return closed;
    }

    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        workers.shutdownNow();
        if (!MoreExecutors.shutdownAndAwaitTermination(timer, Duration.ofSeconds(5))
                || !MoreExecutors.shutdownAndAwaitTermination(workers, Duration.ofSeconds(5))) {
            LOG.warn("Retry threads did not stop within 5 s after close");
        }
    }
}
