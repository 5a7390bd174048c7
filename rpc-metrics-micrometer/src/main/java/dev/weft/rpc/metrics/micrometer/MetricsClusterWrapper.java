package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;
import dev.weft.rpc.spi.Wrapper;

import java.util.Objects;

/**
 * The {@link Cluster} wrapper through which this module sees the consumer's registry directories:
 * each one joined is handed to the director's {@link RegistryGauges}. It adds nothing to the call
 * path (the joined invoker is returned as is). Thread-safe.
 */
@Wrapper(order = 900)
public final class MetricsClusterWrapper implements Cluster, ExtensionDirectorAware {

    private final Cluster cluster;
    private volatile ExtensionDirector director;

    /** Wraps {@code cluster}; the loader calls this for every cluster it returns. */
    public MetricsClusterWrapper(Cluster cluster) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
    }

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        this.director = Objects.requireNonNull(director, "director");
    }

    @Override
    public <T> Invoker<T> join(Directory<T> directory) throws RpcException {
        Invoker<T> joined = cluster.join(directory);
        if (directory instanceof RegistryDirectory<T> fromRegistry) {
            MeterHub.of(director).registryGauges().add(fromRegistry);
        }
        return joined;
    }

    @Override
    public String toString() {
        return "MetricsClusterWrapper[" + cluster + "]";
    }
}
