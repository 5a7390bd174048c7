package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.loadbalance.CallStats;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

import java.util.Objects;
import java.util.function.Function;

/**
 * The shared logic of clusters: resolves balancers by name through the {@link ExtensionDirector}
 * that created this cluster (the default director when constructed directly; the loader caches
 * them, and an invoker resolves a name once per directory state), builds the strategy's invoker, and starts it: the invoker records call
 * statistics in that director's {@link CallStats} and checks the directory's state, so
 * {@link #join} throws for a bad setting.
 *
 * <p>Thread-safe. An unknown balancer name fails the join (or the {@code setUrl}) with the
 * loader's error, naming the available balancers.
 */
public abstract class AbstractCluster implements Cluster, ExtensionDirectorAware {

    private volatile Function<String, LoadBalance> lookup;
    private volatile CallStats stats;
    private volatile ResilienceStats resilience;

    /** Called by the loader right after construction: balancers come from the same director. */
    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        Objects.requireNonNull(director, "director");
        useLoadBalances(director.getExtensionLoader(LoadBalance.class)::getExtension);
        stats = CallStats.of(director);
        resilience = ResilienceStats.of(director);
    }

    /** Resolves balancers with {@code lookup} instead of a director (tests, embedding). */
    final void useLoadBalances(Function<String, LoadBalance> lookup) {
        this.lookup = Objects.requireNonNull(lookup, "lookup");
    }

    /**
     * Builds this strategy's invoker over {@code directory} and starts it. A cluster constructed
     * directly (no director) uses the balancers and statistics of the default director.
     *
     * @throws IllegalArgumentException when the directory's consumer URL has a bad setting for this
     *                                  strategy or its balancer ({@code what: value (expected: rule)})
     */
    @Override
    public final <T> Invoker<T> join(Directory<T> directory) throws RpcException {
        Objects.requireNonNull(directory, "directory");
        if (stats == null) {
            ExtensionDirector fallback = ExtensionDirector.getDefault();
            if (lookup == null) {
                useLoadBalances(fallback.getExtensionLoader(LoadBalance.class)::getExtension);
            }
            stats = CallStats.of(fallback);
            resilience = ResilienceStats.of(fallback);
        }
        AbstractClusterInvoker<T> invoker = doJoin(directory, lookup);
        invoker.start(stats, resilience);
        return invoker;
    }

    /**
     * Builds this strategy's invoker over {@code directory}.
     *
     * @param loadBalances resolves a balancer name ({@code random}, ...) to the shared instance;
     *                     throws {@link IllegalStateException} for unknown names
     */
    protected abstract <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances);
}
