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
        CallOptions callerOptions = invocation.getCallOptions();
        Result result = invokeProvider(invokers.get(first), invocation, attemptOptions(callerOptions, 1));
        return Results.then(result, (answer, failure) -> {
            if (failure == null) {
                return answer;
            }
            int next = failure instanceof RpcException e && e.isNotProcessed() && stopped(callerOptions) == null
                    ? nextAvailable(invokers, first + 1) : -1;
            if (next < 0) {
                return failed(invocation, plan, invokers.get(first), failure);
            }
            return Results.then(invokeProvider(invokers.get(next), invocation, attemptOptions(callerOptions, 2)),
                    (again, failedAgain) -> failedAgain == null ? again : failed(invocation, plan, invokers.get(next), failedAgain));
        });
    }

    private Result failed(Invocation invocation, MethodPlan<T> plan, Invoker<T> invoker, Throwable failure) {
        return AsyncResult.failed(giveUp("Available invoke of " + callSite(invocation) + " failed on provider " + describe(invoker)
                + " (consumer: " + plan.url() + "): ", failure));
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
