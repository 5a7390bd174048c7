package dev.weft.rpc.cluster;

import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.function.Function;

/**
 * {@code failfast}: one attempt; a failure is reported at once naming the provider. For
 * non-idempotent writes, where a retry could execute twice. Thread-safe singleton.
 */
public final class FailfastCluster extends AbstractCluster {

    @Override
    protected <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        return new FailfastClusterInvoker<>(directory, loadBalances);
    }
}
