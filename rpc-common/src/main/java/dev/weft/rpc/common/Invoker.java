package dev.weft.rpc.common;

/**
 * Something that can execute an {@link Invocation} of service interface {@code T}: a remote
 * provider, a cluster of providers, a mock.
 *
 * <p>The returned {@link Result} may be pending (the call goes on after {@code invoke} returns).
 * Exceptions raised by the service implementation travel in the result. A failure of the call
 * itself (network, timeout, no provider: an {@link RpcException}) known before {@code invoke}
 * returns may be thrown; one found later ends the result ({@link Result#completion()} fails with
 * it). Callers handle both; inside a filter chain failures always arrive in the result.
 *
 * @param <T> the service interface
 */
public interface Invoker<T> extends Node {

    /** The service interface this invoker serves. */
    Class<T> getInterface();

    /**
     * Executes the invocation, or starts it and returns a pending result.
     *
     * @throws RpcException when the call could not be carried out (or started)
     */
    Result invoke(Invocation invocation) throws RpcException;
}
