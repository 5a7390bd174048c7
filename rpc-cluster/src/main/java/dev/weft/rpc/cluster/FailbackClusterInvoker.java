package dev.weft.rpc.cluster;

import dev.weft.rpc.cluster.internal.RetryScheduler;
import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.loadbalance.MethodSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Function;

/**
 * One attempt; on a non-business failure (an empty directory included) logs it (rate-limited,
 * with counts), returns an empty
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
 * call is dropped with a warning and counted ({@link FailbackCluster#droppedRetries}). {@link #destroy()}
 * cancels this invoker's retries, and those of calls that fail after it. Thread-safe.
 */
final class FailbackClusterInvoker<T> extends AbstractClusterInvoker<T> {

    /** Consumer URL key: the most calls queued for retry (default 100). */
    public static final String FAILBACK_TASKS_KEY = "failbacktasks";
    /** Consumer URL key: the delay between retries in ms (default 5000). */
    public static final String FAILBACK_PERIOD_KEY = "failback.period";
    static final int DEFAULT_FAILBACK_TASKS = 100;
    static final long DEFAULT_FAILBACK_PERIOD_MILLIS = 5000;
    static final int DEFAULT_RETRIES = 3;

    private static final Logger LOG = LoggerFactory.getLogger(FailbackClusterInvoker.class);

    private final RetryScheduler scheduler;
    private final Set<RetryTask> tasks = ConcurrentHashMap.newKeySet();
    private final AtomicLong dropped = new AtomicLong();

    FailbackClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances, RetryScheduler scheduler) {
        super(directory, loadBalances);
        this.scheduler = scheduler;
    }

    @Override
    protected int defaultRetries() {
        return DEFAULT_RETRIES;
    }

    /** The service-level keys: the queue bound and the retry period. */
    private record Limits(int maxTasks, long periodMillis) {
    }

    @Override
    protected Object resolve(MethodSettings settings) {
        if (settings.method() != null) {
            return null;
        }
        return new Limits(settings.getInt(FAILBACK_TASKS_KEY, DEFAULT_FAILBACK_TASKS, 1, Integer.MAX_VALUE),
                settings.getLong(FAILBACK_PERIOD_KEY, DEFAULT_FAILBACK_PERIOD_MILLIS, 1, Long.MAX_VALUE));
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
        List<Invoker<T>> invokers;
        Invoker<T> invoker;
        try {
            invokers = listCandidates(invocation, plan);
            invoker = select(invocation, invokers, null, plan);
        } catch (RuntimeException failure) {
            return failedNow(invocation, plan, null, failure);
        }
        Result result = invokeOnce(invocation, invoker, invokers, plan, invocation.getCallOptions());
        return Results.then(result, (answer, failure) -> failure == null ? answer : failedNow(invocation, plan, invoker, failure));
    }

    /** The call failed: a business exception ends it; anything else is queued for retry, and the caller gets an empty result. */
    private Result failedNow(Invocation invocation, MethodPlan<T> plan, Invoker<T> invoker, Throwable failure) {
        rethrowIfFatal(failure);
        if (isBiz(failure) || (failure instanceof RpcException e && e.isCancelled())) {
            return AsyncResult.failed(failure);
        }
        queueRetry(invocation, plan, invoker, failure);
        return RpcResult.of(null);
    }

    /** Calls waiting for a retry now (none once the cluster is closed: those count as dropped). */
    int pendingRetries() {
        dropStaleTasks();
        return tasks.size();
    }

    /** Calls this invoker dropped instead of retrying (queue full, cluster closed). */
    long droppedRetries() {
        dropStaleTasks();
        return dropped.get();
    }

    /** After the cluster closed, queued tasks will never run: count them as dropped. */
    private void dropStaleTasks() {
        if (scheduler.isClosed()) {
            tasks.stream().filter(RetryTask::finish).forEach(stale -> drop(stale.invocation, "the failback cluster was closed", null));
        }
    }

    @Override
    protected void onDestroy() {
        long cancelled = tasks.stream().filter(RetryTask::finish).count();
        if (cancelled > 0) {
            LOG.info("Failback of service {} destroyed: {} queued retries cancelled", getInterface().getName(), cancelled);
        }
    }

    private void queueRetry(Invocation invocation, MethodPlan<T> plan, Invoker<T> failed, Throwable failure) {
        String where = callSite(invocation) + " failed on " + (failed == null ? "(no provider)" : "provider " + describe(failed));
        Limits limits = serviceSettings();
        if (plan.retries() == 0) {
            logFailure("Failback invoke of " + where + " and " + RETRIES_KEY + "=0: not retrying (consumer: " + plan.url() + ")", failure);
        } else if (scheduler.isClosed()) {
            drop(invocation, "the failback cluster is closed", failure);
        } else {
            // retries run long after the caller's call ended: with their own options, no deadline, no caller executor
            RpcInvocation retryCall = RpcInvocation.copyOf(invocation).setCallOptions(CallOptions.DEFAULT);
            RetryTask task = new RetryTask(retryCall, plan.retries(), failed, limits.periodMillis());
            boolean queued;
            synchronized (tasks) { // the bound holds under concurrent failures; nothing is queued once destroyed
                queued = tasks.size() < limits.maxTasks() && !isDestroyed() && tasks.add(task);
            }
            if (!queued && isDestroyed()) {
                // failed while this invoker was destroyed: cancelled, like the retries queued before
                LOG.info("Failback invoker destroyed: not retrying the failed call of {}: {}", callSite(invocation), brief(failure));
                return;
            }
            if (!queued) {
                drop(invocation, "the retry queue is full (" + FAILBACK_TASKS_KEY + "=" + limits.maxTasks() + ")", failure);
                return;
            }
            logFailure("Failback invoke of " + where + "; retrying every " + limits.periodMillis() + " ms up to " + plan.retries()
                    + " times (consumer: " + plan.url() + ")", failure);
            task.schedule();
        }
    }

    private void drop(Invocation invocation, String reason, Throwable failure) {
        LOG.warn("Failback dropped a retry of {}: {}; {} dropped so far by this invoker; cause: {}", callSite(invocation), reason,
                dropped.incrementAndGet(), failure == null ? "the original failure (logged when it happened)" : brief(failure));
    }

    /** One queued call: retried until it gets an answer, runs out of retries, or is cancelled. */
    private final class RetryTask implements Runnable {
        private final RpcInvocation invocation;
        private final int retries;
        private final long periodMillis;
        private int attempts;
        private Invoker<T> lastFailed;
        private volatile Future<?> scheduled;

        RetryTask(RpcInvocation invocation, int retries, Invoker<T> lastFailed, long periodMillis) {
            this.invocation = invocation;
            this.retries = retries;
            this.lastFailed = lastFailed;
            this.periodMillis = periodMillis;
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
            Future<?> handle = scheduled;
            if (handle != null) {
                handle.cancel(false);
            }
            return tasks.remove(this);
        }

        @Override
        public void run() {
            if (!tasks.contains(this)) {
                return;
            }
            attempts++;
            Invoker<T> invoker;
            Result result;
            try {
                MethodPlan<T> plan = plan(invocation);
                invoker = select(invocation, listCandidates(invocation, plan), lastFailed == null ? null : List.of(lastFailed), plan);
                result = invokeProvider(invoker, invocation, CallOptions.DEFAULT.withAttempt(attempts + 1));
            } catch (RuntimeException | Error failure) {
                ended(null, failure);
                return;
            }
            result.whenComplete((answer, failure) -> ended(invoker, failure));
        }

        /** The retry on {@code invoker} (null: none could be chosen) ended, with {@code failure} or none. */
        private void ended(Invoker<T> invoker, Throwable failure) {
            if (failure == null) {
                if (finish()) {
                    LOG.info("Failback retry {}/{} of {} succeeded on provider {}", attempts, retries, callSite(invocation),
                            describe(invoker));
                }
            } else if (failure instanceof Error fatal) {
                // an Error ends this task (its queue slot is freed) but not the worker: no caller is waiting to rethrow it to
                if (finish()) {
                    LOG.error("Failback retry {}/{} of {} threw an Error; giving up on this call", attempts, retries,
                            callSite(invocation), fatal);
                }
            } else {
                lastFailed = invoker != null ? invoker : lastFailed;
                boolean answered = isBiz(failure);
                if (!answered && attempts < retries && !isDestroyed()) {
                    LOG.debug("Failback retry {}/{} of {} failed: {}", attempts, retries, callSite(invocation), brief(failure));
                    schedule();
                } else if (finish()) {
                    if (answered) {
                        LOG.warn("Failback retry {}/{} of {} got a business exception; not retrying: {}", attempts, retries,
                                callSite(invocation), brief(failure));
                    } else {
                        logFailure("Failback gave up on " + callSite(invocation) + " after " + attempts + " retries", failure);
                    }
                }
            }
        }
    }
}
