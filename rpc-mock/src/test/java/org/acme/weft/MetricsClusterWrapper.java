package org.acme.weft;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invoker;

/** A third-party Cluster wrapper with the default order, in a package sorting after dev.weft. */
public class MetricsClusterWrapper implements Cluster {

    private final Cluster delegate;

    public MetricsClusterWrapper(Cluster delegate) {
        this.delegate = delegate;
    }

    public Cluster delegate() {
        return delegate;
    }

    @Override
    public <T> Invoker<T> join(Directory<T> directory) {
        return delegate.join(directory);
    }
}
