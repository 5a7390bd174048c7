package dev.weft.rpc.cluster;

import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.function.Function;

/**
 * {@code available}: call the first available provider in directory order, no balancer, no
 * retry. For a primary/standby pair where order expresses preference. Thread-safe singleton.
 */
public final class AvailableCluster extends AbstractCluster {

    @Override
    protected <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        return new AvailableClusterInvoker<>(directory, loadBalances);
    }
}
