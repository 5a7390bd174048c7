package dev.weft.rpc.spring.boot.internal;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

import java.util.Objects;

/**
 * Wraps every cluster strategy to record, in its director's {@link ReferenceLedger}, each
 * directory joined: the references the health indicator reports on. Adds nothing to a call.
 * Thread-safe.
 */
public final class LedgerClusterWrapper implements Cluster, ExtensionDirectorAware {

    private final Cluster cluster;
    private volatile ReferenceLedger ledger;

    /** Wraps {@code cluster}; the extension loader calls this for every cluster it returns. */
    public LedgerClusterWrapper(Cluster cluster) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
    }

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        this.ledger = director.getExtensionLoader(ReferenceLedger.class).getDefaultExtension();
    }

    @Override
    public <T> Invoker<T> join(Directory<T> directory) throws RpcException {
        Invoker<T> joined = cluster.join(directory);
        ReferenceLedger current = ledger;
        if (current != null) {
            current.add(directory);
        }
        return joined;
    }

    @Override
    public String toString() {
        return "ledger(" + cluster + ")";
    }
}
