package dev.weft.rpc.cluster;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code hedging}: send the call to one provider and, when no answer came within
 * {@code hedge-delay} (a fixed time, or a percentile of the method's recent latency), to another
 * one not tried yet, up to {@code hedges} times; the first answer wins and the other attempts are
 * cancelled, on the consumer and on the provider. Every hedge is granted by the service's
 * {@link RetryBudget}. For idempotent calls whose tail latency matters; never for writes.
 *
 * <p>Owns one daemon timer thread ({@code weft-hedging-timer}) that hands each due hedge to the
 * call's executor ({@code CallOptions.executor()}), and daemon threads
 * ({@code weft-hedge-starter-N}: as many as cores, at least 2, created on demand, idle ones ending
 * after 60 s) that start the hedges of calls without one; no thread waits for an answer. {@link #close()} (called by {@code ExtensionDirector.close()}) stops
 * them; calls after that are not hedged. Thread-safe singleton.
 */
public final class HedgingCluster extends AbstractCluster implements AutoCloseable {

    private final ScheduledThreadPoolExecutor timer;
    private final ExecutorService starters;

    public HedgingCluster() {
        timer = new ScheduledThreadPoolExecutor(1, new ThreadFactoryBuilder().setNameFormat("weft-hedging-timer").setDaemon(true).build());
        timer.setRemoveOnCancelPolicy(true);
        int threads = Math.max(2, Runtime.getRuntime().availableProcessors());
        ThreadPoolExecutor pool = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                new ThreadFactoryBuilder().setNameFormat("weft-hedge-starter-%d").setDaemon(true).build());
        pool.allowCoreThreadTimeOut(true);
        starters = pool;
    }

    @Override
    protected <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        return new HedgingClusterInvoker<>(directory, loadBalances, this);
    }

    /**
     * Runs {@code task} after {@code delayNanos} on {@code executor}, or on this cluster's own
     * threads when it is null; once closed, or when the executor refuses it, never (the hedge is
     * not sent; the attempts running decide the call).
     */
    Future<?> schedule(Runnable task, long delayNanos, Executor executor) {
        Executor runOn = executor != null ? executor : starters;
        try {
            return timer.schedule(() -> {
                try {
                    runOn.execute(task);
                } catch (RejectedExecutionException refused) {
                    // shutting down: the hedge is not sent
                }
            }, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            return CompletableFuture.completedFuture(null);
        }
    }

    /** Stops the timer thread and the starting threads; idempotent. */
    @Override
    public void close() {
        timer.shutdownNow();
        starters.shutdownNow();
    }
}
