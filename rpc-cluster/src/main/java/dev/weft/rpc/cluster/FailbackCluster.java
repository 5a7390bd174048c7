package dev.weft.rpc.cluster;

import com.google.common.collect.MapMaker;
import dev.weft.rpc.cluster.internal.ExecutorRetryScheduler;
import dev.weft.rpc.cluster.internal.RetryScheduler;
import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.Objects;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Function;

/**
 * {@code failback}: a failed call returns an empty result at once and is retried in the
 * background. For fire-and-forget notifications that must arrive eventually (and tolerate
 * arriving twice, since the first attempt may have run). Not for calls whose result is used.
 *
 * <p>Owns the retry threads shared by all its invokers: one timer thread
 * ({@code weft-failback-timer-N}) and {@link #RETRY_WORKERS} workers ({@code weft-failback-worker-N}),
 * daemon threads started on first use and stopped after a minute idle. Destroying one of its
 * invokers cancels that invoker's retries; {@link #close()} (called by
 * {@code ExtensionDirector.close()}) cancels every queued retry and stops the threads.
 * Thread-safe singleton.
 */
public final class FailbackCluster extends AbstractCluster implements AutoCloseable {

    /** Worker threads running retries, so a slow retry never holds the timer. */
    public static final int RETRY_WORKERS = 2;

    private static final int WORKER_QUEUE_BOUND = 256;

    private final RetryScheduler scheduler;
    /** The invoker joined to each directory, held weakly: for the per-directory retry counts. */
    private final ConcurrentMap<Directory<?>, FailbackClusterInvoker<?>> byDirectory = new MapMaker().weakKeys().weakValues().makeMap();

    public FailbackCluster() {
        this(new ExecutorRetryScheduler("weft-failback", RETRY_WORKERS, WORKER_QUEUE_BOUND));
    }

    /** A failback cluster retrying through {@code scheduler} (tests use a manual one). */
    FailbackCluster(RetryScheduler scheduler) {
        this.scheduler = Objects.requireNonNull(scheduler, "scheduler");
    }

    @Override
    protected <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        FailbackClusterInvoker<T> invoker = new FailbackClusterInvoker<>(directory, loadBalances, scheduler);
        byDirectory.put(directory, invoker);
        return invoker;
    }

    /**
     * Calls of the invoker joined to {@code directory} waiting for a retry now; 0 when none was
     * joined by this cluster. Works whatever wraps the joined invoker (the {@code rpc-mock} wrapper
     * does): get this cluster with {@code loader.getExtension("failback", false)}.
     */
    public int pendingRetries(Directory<?> directory) {
        FailbackClusterInvoker<?> invoker = byDirectory.get(directory);
        return invoker == null ? 0 : invoker.pendingRetries();
    }

    /** Calls the invoker joined to {@code directory} dropped instead of retrying (queue full, cluster closed). */
    public long droppedRetries(Directory<?> directory) {
        FailbackClusterInvoker<?> invoker = byDirectory.get(directory);
        return invoker == null ? 0 : invoker.droppedRetries();
    }

    /** Cancels every queued retry and stops the retry threads; idempotent. */
    @Override
    public void close() {
        scheduler.close();
    }
}
