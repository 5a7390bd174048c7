package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.spi.SPI;

/**
 * One link of a consumer or provider filter chain. Built-ins carry
 * {@code @Activate(group = "consumer")} or {@code @Activate(group = "provider")}; the URL key
 * {@code filter} edits a chain ({@code a,-b,-default}).
 *
 * <p>A filter is shared by every invoker of its chain and must be thread-safe; state it keeps
 * (such as permits) is its own.
 */
@SPI
public interface Filter {

    /** Handles the call, usually by passing it on with {@code next.invoke(invocation)}. */
    Result invoke(Invoker<?> next, Invocation invocation) throws RpcException;
}
