package dev.weft.rpc.cluster;

import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.loadbalance.LoadBalance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code forking}: call {@code forks} providers in parallel and take the first answer, for
 * latency-critical reads where spending extra provider capacity is acceptable. Never for writes.
 *
 * <p>Owns one bounded executor shared by all its invokers, which starts forks: {@link #DEFAULT_THREADS}
 * daemon threads named {@code weft-forking-N} (started on demand, stopped after a minute idle) and a
 * queue of {@link #QUEUE_BOUND} forks; a fork that does not fit counts as a failed fork. No thread
 * waits for a fork's answer. One daemon timer thread ({@code weft-forking-timer}) ends calls whose
 * {@code timeout} passed. {@link #close()} (called by
 * {@code ExtensionDirector.close()}) fails the pending calls and stops the threads; later forking
 * calls fail with a clear error. Thread-safe singleton.
 */
public final class ForkingCluster extends AbstractCluster implements AutoCloseable {

    /** Worker threads: twice the processors, at least 4, at most 64. */
    public static final int DEFAULT_THREADS = Math.min(64, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));

    /** Forks waiting for a worker before further forks are refused. */
    public static final int QUEUE_BOUND = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(ForkingCluster.class);

    private final ThreadPoolExecutor executor;
    private final ScheduledThreadPoolExecutor timer;
    /** The pending calls, with what ends each one when the cluster closes. */
    private final Map<AsyncResult, Runnable> pending = new ConcurrentHashMap<>();

    public ForkingCluster() {
        this(DEFAULT_THREADS);
    }

    /** A forking cluster with {@code threads} workers (tests, embedding). */
    ForkingCluster(int threads) {
        executor = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE_BOUND),
                new ThreadFactoryBuilder().setNameFormat("weft-forking-%d").setDaemon(true).build(), new ThreadPoolExecutor.AbortPolicy());
        executor.allowCoreThreadTimeOut(true);
        timer = new ScheduledThreadPoolExecutor(1, new ThreadFactoryBuilder().setNameFormat("weft-forking-timer").setDaemon(true).build());
        timer.setRemoveOnCancelPolicy(true);
    }

    @Override
    protected <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        return new ForkingClusterInvoker<>(directory, loadBalances, this);
    }

    boolean isClosed() {
        return executor.isShutdown();
    }

    /** Records a pending call until it ends; {@code onClose} ends it if the cluster closes first. */
    void started(AsyncResult outcome, Runnable onClose) {
        pending.put(outcome, onClose);
        outcome.completion().whenComplete((answer, failure) -> pending.remove(outcome));
        if (isClosed() && pending.remove(outcome) != null) {
            onClose.run(); // closed between the caller's check and now: it missed the close
        }
    }

    Future<?> submit(Runnable fork) {
        return executor.submit(fork);
    }

    /**
     * Runs {@code task} on the timer thread after {@code delayMillis} (at once when the cluster is
     * closed): the fork threads may all be busy running forks, and a timeout must not wait for them.
     */
    Future<?> schedule(Runnable task, long delayMillis) {
        try {
            return timer.schedule(task, delayMillis, TimeUnit.MILLISECONDS);
        } catch (RejectedExecutionException closed) {
            task.run();
            return CompletableFuture.completedFuture(null);
        }
    }

    /**
     * Fails the pending calls at once, then stops the threads (forks in flight are interrupted);
     * idempotent. The calls are told first, so that the failures of their interrupted forks cannot
     * reach them before the word that the cluster closed.
     */
    @Override
    public void close() {
        executor.shutdown();
        pending.values().forEach(Runnable::run);
        executor.shutdownNow();
        timer.shutdownNow();
        if (!MoreExecutors.shutdownAndAwaitTermination(executor, Duration.ofSeconds(5))) {
            LOG.warn("Forking threads did not stop within 5 s after close");
        }
    }

    /** The executor, for tests. */
    ExecutorService executor() {
        return executor;
    }
}
