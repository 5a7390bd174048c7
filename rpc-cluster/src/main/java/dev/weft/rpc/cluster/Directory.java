package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Node;
import dev.weft.rpc.common.RpcException;

import java.util.List;

/**
 * The current set of provider invokers of one service, as seen by one consumer.
 *
 * <p>{@link #getUrl()} is the consumer URL (the keys the cluster strategies read).
 * Implementations are thread-safe. {@link AbstractDirectory} publishes immutable
 * {@link DirectoryState}s that cluster invokers plan once per state; a cluster invoker over any
 * other implementation reads its URL and list per call and re-plans when they change.
 *
 * @param <T> the service interface
 */
public interface Directory<T> extends Node {

    /** The service interface. */
    Class<T> getInterface();

    /**
     * The invokers that may serve {@code invocation}: an immutable list, possibly empty, each
     * available now when the directory checks availability.
     *
     * @throws RpcException when the directory cannot list (e.g. it was destroyed)
     */
    List<Invoker<T>> list(Invocation invocation) throws RpcException;
}
