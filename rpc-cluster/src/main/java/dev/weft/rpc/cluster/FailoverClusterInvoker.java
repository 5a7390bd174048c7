package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.loadbalance.LoadBalance;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.List;
import java.util.function.Function;

/**
 * Up to {@code retries + 1} attempts (one more when a provider answers
 * {@link RpcException#NOT_PROCESSED}), each on an invoker not tried before while one exists,
 * re-listing the directory before every retry, each retry granted by the service's
 * {@link RetryBudget} (when it is spent the call fails with its last error). Retries non-business {@link RpcException}s and
 * unexpected exceptions; business exceptions (thrown with {@link RpcException#isBiz()} or carried
 * in the result) return at once. The final error names the method, the service, the attempts,
 * the providers tried ({@code 2/3}) and the last cause, and keeps the last cause's code.
 * Thread-safe.
 */
final class FailoverClusterInvoker<T> extends AbstractClusterInvoker<T> {

    private static final Logger LOG = LoggerFactory.getLogger(FailoverClusterInvoker.class);

    FailoverClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        super(directory, loadBalances);
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
        List<Invoker<T>> invokers = listCandidates(invocation, plan);
        int attempts = plan.retries() + 1;
        List<Invoker<T>> tried = null;
        Throwable lastFailure = null;
        int attempt = 0;
        boolean notProcessedRetried = false;
        boolean budgetSpent = false;
        while (true) {
            Invoker<T> invoker = select(invocation, invokers, tried, plan);
            attempt++;
            try {
                Result result = invokeProvider(invoker, invocation);
                if (lastFailure != null && LOG.isWarnEnabled()) {
                    LOG.warn("{} succeeded on provider {} at attempt {}/{} after: {}", callSite(invocation), describe(invoker),
                            attempt, attempts, brief(lastFailure));
                }
                return result;
            } catch (Throwable failure) {
                rethrowIfFatal(failure);
                if (isBiz(failure)) {
                    throw (RpcException) failure;
                }
                lastFailure = failure;
                tried = markTried(tried, invoker, attempts);
                if (!notProcessedRetried && failure instanceof RpcException && ((RpcException) failure).isNotProcessed()) {
                    // the provider never ran it: one attempt elsewhere, beyond the retries
                    notProcessedRetried = true;
                    attempts++;
                }
            }
            if (attempt >= attempts || isDestroyed()) {
                break;
            }
            if (!mayRetry(invocation, lastFailure)) {
                budgetSpent = true;
                break;
            }
            try {
                invokers = listInvokers(invocation);
            } catch (RpcException none) {
                break; // nobody left to retry on: give up with the last cause
            }
        }
        throw giveUp("Failed to invoke " + callSite(invocation) + " after " + attempt + (attempt == 1 ? " attempt" : " attempts")
                + " (retries=" + plan.retries() + (budgetSpent ? ", retry budget spent" : "") + "); providers tried " + tried.size() + "/" + invokers.size() + " "
                + describeAll(tried) + " (consumer: " + plan.url() + "); last cause: ", lastFailure);
    }
}
