package dev.weft.rpc.cluster;

import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.function.Function;

/**
 * {@code failover} (the default): on a network error, timeout or unexpected exception, try again
 * on another provider, up to {@code retries} (method level, default 2) extra attempts. Business
 * exceptions are never retried. Use it for idempotent reads only: a retried write may execute
 * twice. Thread-safe singleton.
 */
public final class FailoverCluster extends AbstractCluster {

    @Override
    protected <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        return new FailoverClusterInvoker<>(directory, loadBalances);
    }
}
