package dev.weft.rpc.common;

/**
 * Something that can execute an {@link Invocation} of service interface {@code T}: a remote
 * provider, a cluster of providers, a mock.
 *
 * <p>Failures of the call itself (network, timeout, no provider) are thrown as
 * {@link RpcException}; exceptions raised by the service implementation travel in the
 * returned {@link Result}.
 *
 * @param <T> the service interface
 */
public interface Invoker<T> extends Node {

    /** The service interface this invoker serves. */
    Class<T> getInterface();

    /**
     * Executes the invocation.
     *
     * @throws RpcException when the call could not be carried out
     */
    Result invoke(Invocation invocation) throws RpcException;
}
