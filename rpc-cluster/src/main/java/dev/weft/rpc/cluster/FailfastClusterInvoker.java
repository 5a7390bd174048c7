package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.List;

import java.util.function.Function;

/**
 * One attempt (and one more on another provider when the first answers
 * {@link RpcException#NOT_PROCESSED}). Non-business failures are wrapped in an {@link RpcException} that names the
 * provider and keeps the cause's code; business exceptions pass unchanged. Thread-safe.
 */
final class FailfastClusterInvoker<T> extends AbstractClusterInvoker<T> {

    FailfastClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        super(directory, loadBalances);
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
        List<Invoker<T>> invokers = listCandidates(invocation, plan);
        return invokeOnce(this, invokers, select(invocation, invokers, null, plan), invocation, plan, "Failfast");
    }

    /**
     * Calls {@code invoker} (once more elsewhere on {@link RpcException#NOT_PROCESSED}); wraps
     * non-business failures naming the provider.
     */
    static <T> Result invokeOnce(AbstractClusterInvoker<T> cluster, List<Invoker<T>> invokers, Invoker<T> invoker,
                                 Invocation invocation, MethodPlan<T> plan, String strategy) {
        try {
            return cluster.invokeOnce(invocation, invoker, invokers, plan);
        } catch (Throwable failure) {
            rethrowIfFatal(failure);
            if (isBiz(failure)) {
                throw (RpcException) failure;
            }
            throw new RpcException(codeOf(failure), strategy + " invoke of " + cluster.callSite(invocation) + " failed on provider "
                    + describe(invoker) + " (consumer: " + cluster.getUrl() + "): " + brief(failure), failure);
        }
    }
}
