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

import java.util.List;
import java.util.function.Function;

/**
 * Up to {@code retries + 1} attempts (one more when a provider answers
 * {@link RpcException#NOT_PROCESSED}), each on an invoker not tried before while one exists,
 * re-listing the directory before every retry. Sync and async calls take the same path: the next
 * attempt starts when the previous one ends, on the thread that ends it; no thread waits.
 *
 * <p>Retries the failures Weft observed ({@link AbstractClusterInvoker#isRetryable}: network,
 * timeout, {@code NOT_PROCESSED}, unexpected failures of the path); the service's own answers (a
 * result carrying its exception, whatever its class or code, or a business {@link RpcException})
 * end the call at once, and so do serialization failures. A cancelled call, or one whose
 * {@code call-timeout} budget is spent, starts no further attempt. The final error names the
 * method, the service, the attempts, the providers tried ({@code 2/3}) and the last cause, and
 * keeps the last cause's code. A call that succeeds after failed attempts is logged at WARN,
 * rate-limited with counts. Thread-safe.
 */
final class FailoverClusterInvoker<T> extends AbstractClusterInvoker<T> {

    FailoverClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        super(directory, loadBalances);
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
        List<Invoker<T>> invokers = listCandidates(invocation, plan);
        CallOptions callerOptions = invocation.getCallOptions();
        Invoker<T> first = select(invocation, invokers, null, plan);
        Result result = invokeProvider(first, invocation, attemptOptions(callerOptions, 1));
        if (result.isDone() && Results.failureOf(result) == null) {
            return result; // answered at once: no per-call state needed
        }
        return new Call(invocation, plan, callerOptions, invokers).after(first, result);
    }

    /** One call past its first attempt: what was tried and what failed. Its attempts run one after another. */
    private final class Call {
        private final Invocation invocation;
        private final MethodPlan<T> plan;
        private final CallOptions callerOptions;
        private List<Invoker<T>> invokers;
        private List<Invoker<T>> tried;
        private Throwable lastFailure;
        private int attempts;
        private int attempt = 1;
        private boolean notProcessedRetried;

        Call(Invocation invocation, MethodPlan<T> plan, CallOptions callerOptions, List<Invoker<T>> invokers) {
            this.invocation = invocation;
            this.plan = plan;
            this.callerOptions = callerOptions;
            this.invokers = invokers;
            this.attempts = plan.retries() + 1;
        }

        /** What follows attempt {@link #attempt} on {@code invoker}, which gave {@code result}. */
        Result after(Invoker<T> invoker, Result result) {
            return Results.then(result, (answer, failure) -> ended(invoker, answer, failure));
        }

        private Result ended(Invoker<T> invoker, Result answer, Throwable failure) {
            if (failure == null) {
                if (lastFailure != null) {
                    logWarning(callSite(invocation) + " succeeded on provider " + describe(invoker) + " at attempt " + attempt + "/"
                            + attempts + " after: " + brief(lastFailure));
                }
                return answer;
            }
            lastFailure = failure;
            tried = markTried(tried, invoker, attempts);
            if (!isRetryable(failure)) {
                return AsyncResult.failed(giveUpAt(failure));
            }
            if (!notProcessedRetried && failure instanceof RpcException e && e.isNotProcessed()) {
                // the provider never ran it: one attempt elsewhere, beyond the retries
                notProcessedRetried = true;
                attempts++;
            }
            RpcException stop = stopped(callerOptions);
            if (stop != null) {
                stop.addSuppressed(failure);
                return AsyncResult.failed(giveUpAt(stop));
            }
            if (attempt >= attempts || isDestroyed()) {
                return AsyncResult.failed(giveUpAt(failure));
            }
            try {
                invokers = listInvokers(invocation);
            } catch (RpcException none) {
                return AsyncResult.failed(giveUpAt(failure)); // nobody left to retry on: give up with the last cause
            }
            Invoker<T> next = select(invocation, invokers, tried, plan);
            attempt++;
            return after(next, invokeProvider(next, invocation, attemptOptions(callerOptions, attempt)));
        }

        private RpcException giveUpAt(Throwable failure) {
            return giveUp("Failed to invoke " + callSite(invocation) + " after " + attempt + (attempt == 1 ? " attempt" : " attempts")
                    + " (retries=" + plan.retries() + "); providers tried " + tried.size() + "/" + invokers.size() + " "
                    + describeAll(tried) + " (consumer: " + plan.url() + "); last cause: ", failure);
        }
    }
}
