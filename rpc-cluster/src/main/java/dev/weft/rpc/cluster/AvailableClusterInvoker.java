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
 * reported as by {@code failfast}. A {@link RpcException#NOT_PROCESSED} answer goes once to the
 * next available invoker in directory order. Thread-safe.
 */
final class AvailableClusterInvoker<T> extends AbstractClusterInvoker<T> {

    AvailableClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        super(directory, loadBalances);
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
        List<Invoker<T>> invokers = listInvokers(invocation);
        int first = nextAvailable(invokers, 0);
        if (first < 0) {
            throw new RpcException(RpcException.NO_INVOKER_AVAILABLE, "No available provider for " + callSite(invocation)
                    + ": none of the " + invokers.size() + " providers is available (consumer: " + plan.url() + ")");
        }
        Invoker<T> invoker = invokers.get(first);
        try {
            try {
                return invokeProvider(invoker, invocation);
            } catch (RpcException e) {
                int next = e.isNotProcessed() ? nextAvailable(invokers, first + 1) : -1;
                if (next < 0) {
                    throw e;
                }
                invoker = invokers.get(next);
                return invokeProvider(invoker, invocation);
            }
        } catch (Throwable failure) {
            throw giveUp("Available invoke of " + callSite(invocation) + " failed on provider " + describe(invoker) + " (consumer: "
                    + plan.url() + "): ", failure);
        }
    }

    /** The index of the first available invoker at or after {@code from}, or -1. */
    private static <T> int nextAvailable(List<Invoker<T>> invokers, int from) {
        for (int i = from; i < invokers.size(); i++) {
            if (invokers.get(i).isAvailable()) {
                return i;
            }
        }
        return -1;
    }
}
