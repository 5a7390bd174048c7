package dev.weft.rpc.cluster;

import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.function.Function;

/**
 * {@code broadcast}: call every provider, one after the other, e.g. to tell each one to refresh
 * a local cache. Thread-safe singleton.
 */
public final class BroadcastCluster extends AbstractCluster {

    @Override
    protected <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        return new BroadcastClusterInvoker<>(directory, loadBalances);
    }
}
