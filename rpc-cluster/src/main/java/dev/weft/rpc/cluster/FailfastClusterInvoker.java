package dev.weft.rpc.cluster;

import dev.weft.rpc.common.AsyncResult;
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
        Invoker<T> invoker = select(invocation, invokers, null, plan);
        Result result = invokeOnce(invocation, invoker, invokers, plan, invocation.getCallOptions());
        return Results.then(result, (answer, failure) -> failure == null ? answer
                : AsyncResult.failed(giveUp("Failfast invoke of " + callSite(invocation) + " failed on provider " + describe(invoker)
                        + " (consumer: " + plan.url() + "): ", failure)));
    }
}
