package dev.weft.rpc.cluster;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.loadbalance.MethodSettings;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Function;

/**
 * Calls every listed invoker (but those the balancers leave out, such as one with {@code weight=-5})
 * <b>sequentially</b>, in directory order: each provider is called when the
 * previous one has answered (on the thread that ended the previous call; no thread waits).
 *
 * <p>Sequential on purpose: broadcast is for notifications (refresh a cache, reload a
 * configuration) where total latency matters less than predictability; it needs no thread pool
 * (nothing to size, close or saturate), and the early stop on
 * {@value #FAIL_PERCENT_KEY} can stop before bothering the remaining providers, which parallel
 * calls could not. The cost is the sum of the providers' latencies.
 *
 * <p>A failure is a thrown exception or a result carrying an exception. Once failures reach
 * {@code broadcast.fail.percent} percent of the providers (0-100, default 100) the remaining
 * ones are skipped. If any failed, the last failure is thrown (a business exception unchanged,
 * anything else wrapped with its code kept, naming how many failed), or, when the last failure
 * was a result carrying an exception, that result is returned; otherwise the last result is
 * returned. When the invoker is destroyed during a broadcast, or the call is cancelled or its
 * {@code call-timeout} budget spent, the providers not called yet are not called: the broadcast fails
 * saying how many were left out. Thread-safe.
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
        return new Broadcast(invocation, plan, this.<Integer>serviceSettings(), listCallable(invocation, plan)).next();
    }

    /** One broadcast: the providers are called one after another, each when the previous one has answered. */
    private final class Broadcast {
        private final Invocation invocation;
        private final MethodPlan<T> plan;
        private final CallOptions callerOptions;
        private final int failPercent;
        private final List<Invoker<T>> invokers;
        private final int total;
        private final long stopAt;
        private int failures;
        private int called;
        private Result last;
        private Object lastFailure; // a result carrying an exception, or the failure
        private Invoker<T> lastFailed;

        Broadcast(Invocation invocation, MethodPlan<T> plan, int failPercent, List<Invoker<T>> invokers) {
            this.invocation = invocation;
            this.plan = plan;
            this.callerOptions = invocation.getCallOptions();
            this.failPercent = failPercent;
            this.invokers = invokers;
            this.total = invokers.size();
            this.stopAt = (long) failPercent * total;
        }

        /** Calls the next provider, or ends the broadcast when none is left. */
        Result next() {
            if (called == total) {
                return outcome();
            }
            if (called > 0 && (isDestroyed() || stopped(callerOptions) != null)) {
                RpcException why = stopped(callerOptions);
                RpcException stopped = new RpcException(why != null ? why.getCode() : RpcException.UNKNOWN_EXCEPTION, "Broadcast of "
                        + callSite(invocation) + " stopped after " + called + "/" + total + " providers: "
                        + (why != null ? why.getMessage() : "the cluster invoker was destroyed") + "; " + (total - called)
                        + " providers not called (consumer: " + plan.url() + ")");
                if (lastFailure instanceof Throwable failure) {
                    stopped.addSuppressed(failure);
                }
                return AsyncResult.failed(stopped);
            }
            Invoker<T> invoker = invokers.get(called);
            called++;
            Result result = invokeProvider(invoker, invocation, attemptOptions(callerOptions, called));
            return Results.then(result, (answer, failure) -> answered(invoker, answer, failure));
        }

        private Result answered(Invoker<T> invoker, Result answer, Throwable failure) {
            if (failure != null) {
                rethrowIfFatal(failure);
                failures++;
                lastFailure = failure;
                lastFailed = invoker;
                LOG.warn("Broadcast of {} failed on provider {}: {}", callSite(invocation), describe(invoker), brief(failure));
            } else {
                last = answer;
                if (answer.hasException()) {
                    failures++;
                    lastFailure = answer;
                    lastFailed = invoker;
                }
            }
            if (failures > 0 && failures * 100L >= stopAt && called < total) {
                LOG.warn("Broadcast of {} stopped after {}/{} providers failed ({}={}); {} providers not called",
                        callSite(invocation), failures, total, FAIL_PERCENT_KEY, failPercent, total - called);
                return outcome();
            }
            return next();
        }

        private Result outcome() {
            if (lastFailure == null) {
                return last;
            }
            if (lastFailure instanceof Result failedResult) {
                return failedResult;
            }
            return AsyncResult.failed(giveUp("Broadcast of " + callSite(invocation) + " failed on " + failures + "/" + total
                    + " providers (called " + called + ", " + FAIL_PERCENT_KEY + "=" + failPercent + ", consumer: " + plan.url()
                    + "); last failure on provider " + describe(lastFailed) + ": ", (Throwable) lastFailure));
        }
    }
}
