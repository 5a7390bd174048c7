package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.function.Function;

/**
 * One attempt. Non-business failures are wrapped in an {@link RpcException} that names the
 * provider and keeps the cause's code; business exceptions pass unchanged. Thread-safe.
 */
final class FailfastClusterInvoker<T> extends AbstractClusterInvoker<T> {

    FailfastClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        super(directory, loadBalances);
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
        Invoker<T> invoker = select(invocation, listCandidates(invocation, plan), null, plan);
        return invokeOnce(this, invoker, invocation, "Failfast");
    }

    /** Calls {@code invoker} once; wraps non-business failures naming the provider. */
    static <T> Result invokeOnce(AbstractClusterInvoker<T> cluster, Invoker<T> invoker, Invocation invocation, String strategy) {
        try {
            return cluster.invokeProvider(invoker, invocation);
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
