package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.List;
import java.util.function.Function;

/**
 * Calls the first invoker in directory order that reports itself available; no balancer. None
 * available is a {@link RpcException#NO_INVOKER_AVAILABLE} error; failures of the call are
 * reported as by {@code failfast}. Thread-safe.
 */
final class AvailableClusterInvoker<T> extends AbstractClusterInvoker<T> {

    AvailableClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        super(directory, loadBalances);
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
        List<Invoker<T>> invokers = listInvokers(invocation);
        Invoker<T> invoker = invokers.stream().filter(Invoker::isAvailable).findFirst().orElseThrow(() -> new RpcException(
                RpcException.NO_INVOKER_AVAILABLE, "No available provider for " + callSite(invocation) + ": none of the "
                + invokers.size() + " providers is available (consumer: " + plan.url() + ")"));
        try {
            return invokeOnce(invocation, invoker, invokers, plan);
        } catch (Throwable failure) {
            throw giveUp("Available invoke of " + callSite(invocation) + " failed on provider " + describe(invoker) + " (consumer: "
                    + plan.url() + "): ", failure);
        }
    }
}
