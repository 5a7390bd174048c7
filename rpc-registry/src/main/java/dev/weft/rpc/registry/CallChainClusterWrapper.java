package dev.weft.rpc.registry;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;
import dev.weft.rpc.spi.Wrapper;

import java.util.Objects;

/**
 * Puts the {@code call} filter chain ({@link FilterChain#call}: filters with
 * {@code @Activate(group = "call")}) around whatever a cluster's {@code join} builds: a wrapper
 * extension of {@link Cluster} placed outside the mock wrapper, so call filters see the whole call
 * as the caller sees it, every attempt and the mock's answer included (a mocked answer shows as
 * {@link dev.weft.rpc.common.Result#isMocked()}). The filters are selected once per join from the
 * directory's consumer URL (key {@code filter}), and read per-call keys from the invoker's URL, which
 * is the directory's current one. With no call filter selected the cluster's invoker is returned
 * as it is.
 *
 * <p>It lives in {@code rpc-registry}, the module that may use both {@code rpc-cluster} and
 * {@code rpc-protocol} (where {@code Filter} is). Thread-safe.
 */
@Wrapper(order = 500)
public final class CallChainClusterWrapper implements Cluster, ExtensionDirectorAware {

    private final Cluster cluster;
    private volatile ExtensionDirector director;

    /** Wraps {@code cluster}; the loader calls this for every cluster it returns. */
    public CallChainClusterWrapper(Cluster cluster) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
    }

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        this.director = Objects.requireNonNull(director, "director");
    }

    /**
     * The cluster's invoker inside the call chain.
     *
     * @throws RpcException naming the consumer URL when the chain cannot be built (a bad key of a call filter)
     */
    @Override
    public <T> Invoker<T> join(Directory<T> directory) throws RpcException {
        Objects.requireNonNull(directory, "directory");
        ExtensionDirector owner = director != null ? director : ExtensionDirector.getDefault();
        Invoker<T> joined = cluster.join(directory);
        try {
            return FilterChain.call(joined, owner);
        } catch (RuntimeException e) {
            joined.destroy();
            throw new RpcException("Cannot build the call filter chain for " + directory.getUrl() + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return "CallChainClusterWrapper[" + cluster + "]";
    }
}
