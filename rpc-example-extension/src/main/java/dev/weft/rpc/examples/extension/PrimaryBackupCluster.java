package dev.weft.rpc.examples.extension;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;

import java.util.Objects;

/**
 * {@code primarybackup}: a fault-tolerance strategy that sends every call to the primary provider
 * and moves down an ordered list of backups only when a provider could not answer.
 *
 * <p>Providers are tried in the order of their {@value #RANK_KEY} key (provider
 * URL, lower first, default 0; ties keep the directory's order). A network failure, a timeout or a
 * call the provider did not process sends the call to the next provider; any other outcome (an
 * answer, the service's own exception, a business {@code RpcException}) is returned at once. When
 * every provider failed, the {@link RpcException} keeps the last failure's code and cause and names
 * every provider tried.
 *
 * <p>Select it with {@code cluster=primarybackup}. Thread-safe and stateless: one instance joins
 * every directory.
 */
public class PrimaryBackupCluster implements Cluster {

    /** The name this strategy is registered under. */
    public static final String NAME = "primarybackup";
    /** Provider key: position in the primary/backup order, lower first (default 0). */
    public static final String RANK_KEY = "rank";

    /** The instance the extension loader creates. */
    public PrimaryBackupCluster() {
    }

    @Override
    public <T> Invoker<T> join(Directory<T> directory) throws RpcException {
        Objects.requireNonNull(directory, "directory");
        return new PrimaryBackupInvoker<>(directory);
    }

    @Override
    public String toString() {
        return NAME;
    }
}
