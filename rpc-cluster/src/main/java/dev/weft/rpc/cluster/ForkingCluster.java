package dev.weft.rpc.cluster;

import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.weft.rpc.loadbalance.LoadBalance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Function;

/**
 * {@code forking}: call {@code forks} providers in parallel and take the first answer, for
 * latency-critical reads where spending extra provider capacity is acceptable. Never for writes.
 *
 * <p>Owns one bounded executor shared by all its invokers: {@link #DEFAULT_THREADS} daemon threads
 * named {@code weft-forking-N} (started on demand, stopped after a minute idle) and a queue of
 * {@link #QUEUE_BOUND} forks; a fork that does not fit counts as a failed fork. {@link #close()}
 * (called by {@code ExtensionDirector.close()}) stops the threads; later forking calls fail with a
 * clear error. Thread-safe singleton.
 */
public final class ForkingCluster extends AbstractCluster implements AutoCloseable {

    /** Worker threads: twice the processors, at least 4, at most 64. */
    public static final int DEFAULT_THREADS = Math.min(64, Math.max(4, 2 * Runtime.getRuntime().availableProcessors()));

    /** Forks waiting for a worker before further forks are refused. */
    public static final int QUEUE_BOUND = 1024;

    private static final Logger LOG = LoggerFactory.getLogger(ForkingCluster.class);

    private final ThreadPoolExecutor executor;
    private final Set<LinkedBlockingQueue<Object>> waiting = ConcurrentHashMap.newKeySet();

    public ForkingCluster() {
        this(DEFAULT_THREADS);
    }

    /** A forking cluster with {@code threads} workers (tests, embedding). */
    ForkingCluster(int threads) {
        executor = new ThreadPoolExecutor(threads, threads, 60, TimeUnit.SECONDS, new ArrayBlockingQueue<>(QUEUE_BOUND),
                new ThreadFactoryBuilder().setNameFormat("weft-forking-%d").setDaemon(true).build(), new ThreadPoolExecutor.AbortPolicy());
        executor.allowCoreThreadTimeOut(true);
    }

    @Override
    protected <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        return new ForkingClusterInvoker<>(directory, loadBalances, executor, waiting);
    }

    /**
     * Fails the waiting calls at once, then stops the fork threads (forks in flight are
     * interrupted); idempotent. The calls are told first, so that the failures of their
     * interrupted forks cannot reach them before the word that the cluster closed.
     */
    @Override
    public void close() {
        waiting.forEach(answers -> answers.offer(ForkingClusterInvoker.CLOSED));
        executor.shutdownNow();
        if (!MoreExecutors.shutdownAndAwaitTermination(executor, Duration.ofSeconds(5))) {
            LOG.warn("Forking threads did not stop within 5 s after close");
        }
    }

    /** The executor, for tests. */
    ExecutorService executor() {
        return executor;
    }
}
