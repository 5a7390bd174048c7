package dev.weft.rpc.cluster;

import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.function.Function;

/**
 * {@code failsafe}: any failure is logged and the call returns an empty result ({@code null}).
 * For calls whose outcome nobody needs, such as audit logging. Thread-safe singleton.
 */
public final class FailsafeCluster extends AbstractCluster {

    @Override
    protected <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        return new FailsafeClusterInvoker<>(directory, loadBalances);
    }
}
