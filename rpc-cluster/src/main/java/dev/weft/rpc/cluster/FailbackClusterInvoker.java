package dev.weft.rpc.cluster;

import com.google.common.base.Preconditions;
import dev.weft.rpc.cluster.internal.Cancellable;
import dev.weft.rpc.cluster.internal.RetryScheduler;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;

/**
 * One attempt; on a non-business failure (an empty directory included) logs it, returns an empty
 * result ({@code null} value) and queues the call for retry every {@code failback.period} ms
 * (default 5000) up to {@code retries} times (method level, default 3; 0 means no retry). Each
 * retry re-lists the directory and selects a provider afresh, preferring one other than the
 * provider that failed last. A retry that gets an answer (a result or a business exception) ends
 * the task.
 *
 * <p>Business exceptions (thrown with {@link RpcException#isBiz()}) pass to the caller unchanged
 * and are not retried; a result carrying the service's exception is returned unchanged.
 *
 * <p>At most {@code failbacktasks} (default 100) calls wait for retry per invoker; beyond that a
 * call is dropped with a warning and counted ({@link #droppedRetries()}). {@link #destroy()}
 * cancels this invoker's retries. Thread-safe.
 */
public final class FailbackClusterInvoker<T> extends AbstractClusterInvoker<T> {

    /** Consumer URL key: the most calls queued for retry (default 100). */
    public static final String FAILBACK_TASKS_KEY = "failbacktasks";
    /** Consumer URL key: the delay between retries in ms (default 5000). */
    public static final String FAILBACK_PERIOD_KEY = "failback.period";
    static final int DEFAULT_FAILBACK_TASKS = 100;
    static final long DEFAULT_FAILBACK_PERIOD_MILLIS = 5000;
    static final int DEFAULT_RETRIES = 3;

    private static final Logger LOG = LoggerFactory.getLogger(FailbackClusterInvoker.class);

    private final RetryScheduler scheduler;
    private final LongAdder clusterDropped;
    private final Set<RetryTask> tasks = ConcurrentHashMap.newKeySet();
    private final AtomicLong dropped = new AtomicLong();
    private volatile int maxTasks = DEFAULT_FAILBACK_TASKS;
    private volatile long periodMillis = DEFAULT_FAILBACK_PERIOD_MILLIS;

    FailbackClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances, RetryScheduler scheduler,
                           LongAdder clusterDropped) {
        super(directory, loadBalances);
        this.scheduler = scheduler;
        this.clusterDropped = clusterDropped;
    }

    @Override
    protected int defaultRetries() {
        return DEFAULT_RETRIES;
    }

    @Override
    protected void configure(URL consumerUrl) {
        int bound = consumerUrl.getParameter(FAILBACK_TASKS_KEY, DEFAULT_FAILBACK_TASKS);
        Preconditions.checkArgument(bound > 0, "%s: %s (expected: > 0; consumer: %s)", FAILBACK_TASKS_KEY, bound, consumerUrl);
        long period = consumerUrl.getParameter(FAILBACK_PERIOD_KEY, DEFAULT_FAILBACK_PERIOD_MILLIS);
        Preconditions.checkArgument(period > 0, "%s: %s (expected: > 0 ms; consumer: %s)", FAILBACK_PERIOD_KEY, period, consumerUrl);
        maxTasks = bound;
        periodMillis = period;
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodSettings<T> settings) {
        Invoker<T> invoker = null;
        try {
            invoker = select(invocation, listCandidates(invocation), null, settings);
            return invokeProvider(invoker, invocation);
        } catch (Throwable failure) {
            rethrowIfFatal(failure);
            if (isBiz(failure)) {
                throw (RpcException) failure;
            }
            queueRetry(invocation, settings, invoker, failure);
            return RpcResult.of(null);
        }
    }

    /** Calls waiting for a retry now (none once the cluster is closed: those count as dropped). */
    public int pendingRetries() {
        dropStaleTasks();
        return tasks.size();
    }

    /** After the cluster closed, queued tasks will never run: count them as dropped. */
    private void dropStaleTasks() {
        if (!scheduler.isClosed()) {
            return;
        }
        for (RetryTask stale : tasks) {
            if (stale.finish()) {
                drop(stale.invocation, "the failback cluster was closed", null);
            }
        }
    }

    /** Calls this invoker dropped instead of retrying (queue full, cluster closed). */
    public long droppedRetries() {
        return dropped.get();
    }

    @Override
    protected void onDestroy() {
        int cancelled = 0;
        for (RetryTask task : tasks) {
            if (task.finish()) {
                cancelled++;
            }
        }
        if (cancelled > 0) {
            LOG.info("Failback of service {} destroyed: {} queued retries cancelled", getInterface().getName(), cancelled);
        }
    }

    private void queueRetry(Invocation invocation, MethodSettings<T> settings, Invoker<T> failed, Throwable failure) {
        String where = failed == null ? "(no provider)" : "provider " + describe(failed);
        if (settings.retries() == 0) {
            LOG.error("Failback invoke of {} failed on {} and {}=0: not retrying (consumer: {})", callSite(invocation), where,
                    RETRIES_KEY, settings.url(), failure);
            return;
        }
        if (scheduler.isClosed()) {
            dropStaleTasks();
            drop(invocation, "the failback cluster is closed", failure);
            return;
        }
        RetryTask task = new RetryTask(invocation, settings.method(), settings.retries(), failed);
        if (!reserve(task)) {
            drop(invocation, "the retry queue is full (" + FAILBACK_TASKS_KEY + "=" + maxTasks + ")", failure);
            return;
        }
        LOG.error("Failback invoke of {} failed on {}; retrying every {} ms up to {} times (consumer: {})", callSite(invocation),
                where, periodMillis, settings.retries(), settings.url(), failure);
        task.schedule();
    }

    private synchronized boolean reserve(RetryTask task) {
        if (tasks.size() >= maxTasks || isDestroyed()) {
            return false;
        }
        tasks.add(task);
        return true;
    }

    private void drop(Invocation invocation, String reason, Throwable failure) {
        long count = dropped.incrementAndGet();
        clusterDropped.increment();
        LOG.warn("Failback dropped a retry of {}: {}; {} dropped so far by this invoker; cause: {}", callSite(invocation), reason,
                count, failure == null ? "the original failure (logged when it happened)" : brief(failure));
    }

    /** One queued call: retried until it gets an answer, runs out of retries, or is cancelled. */
    private final class RetryTask implements Runnable {
        private final Invocation invocation;
        private final String method;
        private final int retries;
        private int attempts;
        private Invoker<T> lastFailed;
        private volatile Cancellable scheduled;

        RetryTask(Invocation invocation, String method, int retries, Invoker<T> lastFailed) {
            this.invocation = invocation;
            this.method = method;
            this.retries = retries;
            this.lastFailed = lastFailed;
        }

        void schedule() {
            try {
                scheduled = scheduler.schedule(this, periodMillis);
            } catch (RejectedExecutionException closed) {
                if (finish()) {
                    drop(invocation, "the failback cluster is closed", closed);
                }
            }
        }

        /** Removes this task; true when it was still queued. */
        boolean finish() {
            Cancellable handle = scheduled;
            if (handle != null) {
                handle.cancel();
            }
            return tasks.remove(this);
        }

        @Override
        public void run() {
            if (!tasks.contains(this)) {
                return;
            }
            attempts++;
            Invoker<T> invoker = null;
            try {
                MethodSettings<T> settings = settings(method);
                List<Invoker<T>> invokers = listCandidates(invocation);
                invoker = select(invocation, invokers, lastFailed == null ? null : List.of(lastFailed), settings);
                invokeProvider(invoker, invocation);
                if (finish()) {
                    LOG.info("Failback retry {}/{} of {} succeeded on provider {}", attempts, retries, callSite(invocation),
                            describe(invoker));
                }
            } catch (Throwable failure) {
                rethrowIfFatal(failure);
                if (isBiz(failure)) {
                    if (finish()) {
                        LOG.warn("Failback retry {}/{} of {} got a business exception; not retrying: {}", attempts, retries,
                                callSite(invocation), brief(failure));
                    }
                    return;
                }
                if (invoker != null) {
                    lastFailed = invoker;
                }
                if (attempts >= retries || isDestroyed()) {
                    if (finish()) {
                        LOG.error("Failback gave up on {} after {} retries; last cause:", callSite(invocation), attempts, failure);
                    }
                    return;
                }
                LOG.warn("Failback retry {}/{} of {} failed: {}", attempts, retries, callSite(invocation), brief(failure));
                schedule();
            }
        }
    }
}
