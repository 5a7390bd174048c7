package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.loadbalance.MethodSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Function;

/**
 * Calls every listed invoker <b>sequentially</b> in the caller's thread, in directory order.
 *
 * <p>Sequential on purpose: broadcast is for notifications (refresh a cache, reload a
 * configuration) where total latency matters less than predictability; it needs no thread pool
 * (nothing to size, close or saturate), keeps the caller's thread context, and the early stop on
 * {@value #FAIL_PERCENT_KEY} can stop before bothering the remaining providers, which parallel
 * calls could not. The cost is the sum of the providers' latencies.
 *
 * <p>A failure is a thrown exception or a result carrying an exception. Once failures reach
 * {@code broadcast.fail.percent} percent of the providers (0-100, default 100) the remaining
 * ones are skipped. If any failed, the last failure is thrown (a business exception unchanged,
 * anything else wrapped with its code kept, naming how many failed), or, when the last failure
 * was a result carrying an exception, that result is returned; otherwise the last result is
 * returned. When the invoker is destroyed during a broadcast, the providers not called yet are not
 * called: the broadcast fails saying how many were left out. Thread-safe.
 */
final class BroadcastClusterInvoker<T> extends AbstractClusterInvoker<T> {

    /** Consumer URL key: stop once this percentage (0-100) of the providers failed. */
    public static final String FAIL_PERCENT_KEY = "broadcast.fail.percent";
    private static final int DEFAULT_FAIL_PERCENT = 100;

    private static final Logger LOG = LoggerFactory.getLogger(BroadcastClusterInvoker.class);

    BroadcastClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        super(directory, loadBalances);
    }

    @Override
    protected Object resolve(MethodSettings settings) {
        return settings.method() == null ? settings.getInt(FAIL_PERCENT_KEY, DEFAULT_FAIL_PERCENT, 0, 100) : null;
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
        int failPercent = this.<Integer>serviceSettings();
        List<Invoker<T>> invokers = listInvokers(invocation);
        int total = invokers.size();
        long stopAt = (long) failPercent * total;
        int failures = 0;
        int called = 0;
        Result last = null;
        Object lastFailure = null; // a result carrying an exception, or what was thrown
        Invoker<T> lastFailed = null;
        for (Invoker<T> invoker : invokers) {
            if (called > 0 && isDestroyed()) {
                RpcException stopped = new RpcException("Broadcast of " + callSite(invocation) + " stopped after " + called + "/" + total
                        + " providers: the cluster invoker was destroyed; " + (total - called) + " providers not called (consumer: "
                        + plan.url() + ")");
                if (lastFailure instanceof Throwable failure) {
                    stopped.addSuppressed(failure);
                }
                throw stopped;
            }
            called++;
            try {
                last = invokeProvider(invoker, invocation);
                if (last != null && last.hasException()) {
                    failures++;
                    lastFailure = last;
                    lastFailed = invoker;
                }
            } catch (Throwable failure) {
                rethrowIfFatal(failure);
                failures++;
                lastFailure = failure;
                lastFailed = invoker;
                LOG.warn("Broadcast of {} failed on provider {}: {}", callSite(invocation), describe(invoker), brief(failure));
            }
            if (failures > 0 && failures * 100L >= stopAt && called < total) {
                LOG.warn("Broadcast of {} stopped after {}/{} providers failed ({}={}); {} providers not called",
                        callSite(invocation), failures, total, FAIL_PERCENT_KEY, failPercent, total - called);
                break;
            }
        }
        if (lastFailure == null) {
            return last;
        }
        if (lastFailure instanceof Result failedResult) {
            return failedResult;
        }
        throw giveUp("Broadcast of " + callSite(invocation) + " failed on " + failures + "/" + total + " providers (called " + called
                + ", " + FAIL_PERCENT_KEY + "=" + failPercent + ", consumer: " + plan.url() + "); last failure on provider "
                + describe(lastFailed) + ": ", (Throwable) lastFailure);
    }
}
