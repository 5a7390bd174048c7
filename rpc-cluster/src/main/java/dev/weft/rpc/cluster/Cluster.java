package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.spi.Adaptive;
import dev.weft.rpc.spi.SPI;

/**
 * A fault-tolerance strategy: turns a {@link Directory} of provider invokers into one invoker
 * that picks a provider per call and decides what to do when the call fails.
 *
 * <p>Chosen per consumer with the {@code cluster} URL key of the directory's URL
 * ({@code failover} by default); the names shipped are {@code failover}, {@code failfast},
 * {@code failsafe}, {@code failback}, {@code forking}, {@code broadcast}, {@code available} and {@code hedging}.
 * Implementations are singletons shared by every consumer and are thread-safe.
 */
@SPI("failover")
public interface Cluster {

    /**
     * Builds the cluster invoker of {@code directory}. The returned invoker answers
     * {@code getUrl()} with the directory's current consumer URL and {@code getInterface()} with
     * the directory's interface; destroying it destroys the directory.
     *
     * @throws RpcException when the invoker cannot be built
     */
    @Adaptive("cluster")
    <T> Invoker<T> join(Directory<T> directory) throws RpcException;
}
