package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.cluster.ResilienceStats;
import dev.weft.rpc.cluster.ServiceResilience;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;
import dev.weft.rpc.spi.Wrapper;

import java.util.Objects;

/**
 * The {@link Cluster} wrapper through which this module sees the consumer's references: each
 * registry directory joined is handed to the director's {@link RegistryGauges}, and the service of
 * every directory joined, with its {@link ServiceResilience}, to the {@link ResilienceMeters}. It
 * adds nothing to the call path (the joined invoker is returned as is). Thread-safe.
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
        MeterHub hub = MeterHub.of(director);
        if (directory instanceof RegistryDirectory<T> fromRegistry) {
            hub.registryGauges().add(fromRegistry);
        }
        // The strategy's invoker counts into the service's entry of the same director (created by its join).
        ServiceResilience resilience = ResilienceStats.of(owner())
                .service(ResilienceStats.serviceOf(directory.getInterface(), directory.getUrl()));
        hub.resilienceMeters().add(directory.getInterface(), resilience);
        return joined;
    }

    /** The director that created this wrapper, or the default one when it was constructed directly. */
    private ExtensionDirector owner() {
        ExtensionDirector created = director;
        return created != null ? created : ExtensionDirector.getDefault();
    }

    @Override
    public String toString() {
        return "MetricsClusterWrapper[" + cluster + "]";
    }
}
