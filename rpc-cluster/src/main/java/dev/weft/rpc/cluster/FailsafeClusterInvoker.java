package dev.weft.rpc.cluster;


import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.List;
import java.util.function.Function;

/**
 * One attempt; every failure (an empty directory and business exceptions included) is
 * logged at error level, rate-limited with counts, and an empty result ({@code null} value) is
 * returned. Configuration errors never reach it: they are rejected when the state is built. A result that
 * carries the service's exception is the provider's answer and is returned unchanged.
 * Thread-safe.
 */
final class FailsafeClusterInvoker<T> extends AbstractClusterInvoker<T> {

    FailsafeClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        super(directory, loadBalances);
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
        Result result;
        try {
            List<Invoker<T>> invokers = listCandidates(invocation, plan);
            result = invokeOnce(invocation, select(invocation, invokers, null, plan), invokers, plan, invocation.getCallOptions());
        } catch (RuntimeException | Error failure) {
            return ignore(invocation, plan, failure);
        }
        return Results.then(result, (answer, failure) -> failure == null ? answer : ignore(invocation, plan, failure));
    }

    private Result ignore(Invocation invocation, MethodPlan<T> plan, Throwable failure) {
        rethrowIfFatal(failure);
        logFailure("Failsafe ignored a failure of " + callSite(invocation) + " (consumer: " + plan.url()
                + "); returning an empty result", failure);
        return RpcResult.of(null);
    }
}
