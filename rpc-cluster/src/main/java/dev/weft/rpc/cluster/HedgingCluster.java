package dev.weft.rpc.cluster;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code hedging}: send the call to one provider and, when no answer came within
 * {@code hedge-delay} (a fixed time, or a percentile of the method's recent latency), to another
 * one not tried yet, up to {@code hedges} times; the first answer wins and the other attempts are
 * cancelled, on the consumer and on the provider. Every hedge is granted by the service's
 * {@link RetryBudget}. For idempotent calls whose tail latency matters; never for writes.
 *
 * <p>Owns one daemon timer thread ({@code weft-hedging-timer}) that starts the hedges; no thread
 * waits for an answer. {@link #close()} (called by {@code ExtensionDirector.close()}) stops it;
 * calls after that are not hedged. Thread-safe singleton.
 */
public final class HedgingCluster extends AbstractCluster implements AutoCloseable {

    private final ScheduledThreadPoolExecutor timer;

    public HedgingCluster() {
        timer = new ScheduledThreadPoolExecutor(1, new ThreadFactoryBuilder().setNameFormat("weft-hedging-timer").setDaemon(true).build());
        timer.setRemoveOnCancelPolicy(true);
    }

    @Override
    protected <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        return new HedgingClusterInvoker<>(directory, loadBalances, this);
    }

    /** Runs {@code task} on the timer thread after {@code delayNanos}; once closed, never. */
    Future<?> schedule(Runnable task, long delayNanos) {
        try {
            return timer.schedule(task, delayNanos, TimeUnit.NANOSECONDS);
        } catch (RejectedExecutionException closed) {
            return CompletableFuture.completedFuture(null);
        }
    }

    /** Stops the timer thread; idempotent. */
    @Override
    public void close() {
        timer.shutdownNow();
    }
}
