package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.Adaptive;
import dev.weft.rpc.spi.SPI;

/**
 * A way to carry calls between a consumer and a provider: {@code weft} over the network,
 * {@code injvm} inside one JVM. Chosen by the URL's scheme (the adaptive key {@code protocol}).
 *
 * <p>Implementations are shared by every service of one {@code ExtensionDirector} and must be
 * thread-safe. {@link #destroy()} releases everything the protocol opened: servers, client
 * connections, threads.
 */
@SPI("weft")
public interface Protocol {

    /** The port used when an export URL names none. */
    int getDefaultPort();

    /**
     * Makes {@code invoker} callable by consumers at {@code invoker.getUrl()}.
     *
     * @throws RpcException when the URL is invalid or the address cannot be bound
     */
    @Adaptive("protocol")
    <T> Exporter<T> export(Invoker<T> invoker) throws RpcException;

    /**
     * An invoker that calls the provider at {@code url}; cheap to create (connections are shared
     * per address and may open lazily).
     *
     * @throws RpcException when the URL is invalid
     */
    @Adaptive("protocol")
    <T> Invoker<T> refer(Class<T> type, URL url) throws RpcException;

    /** Unexports everything, destroys every referred invoker and releases threads and sockets. */
    void destroy();
}
