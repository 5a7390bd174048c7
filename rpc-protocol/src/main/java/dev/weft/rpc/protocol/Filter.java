package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.spi.SPI;

/**
 * One link of a consumer or provider filter chain, which {@link FilterChain} builds (and
 * {@link ProtocolFilterWrapper} applies to every referred and exported invoker).
 *
 * <p>A filter joins chains automatically when it carries {@code @Activate(group = "consumer")}
 * or {@code @Activate(group = "provider")} (and, with {@code value}, only when the URL has one of
 * those keys); {@code order} places it, lowest outermost. The URL key {@code filter} edits a chain
 * ({@code a,-b,-default}). Register one in {@code META-INF/rpc/dev.weft.rpc.protocol.Filter}.
 *
 * <p>A filter is a singleton per {@code ExtensionDirector}, shared by every chain and thread, and
 * must be thread-safe; state it keeps (such as permits) is its own, and should go with the
 * invoker it belongs to. Business failures travel in the returned {@link Result}; a filter that
 * refuses a call throws an {@link RpcException} (code {@link RpcException#NOT_PROCESSED} when
 * nothing ran, so the cluster may retry elsewhere).
 */
@SPI
public interface Filter {

    /**
     * Handles the call, usually by passing it on with {@code next.invoke(invocation)}; {@code next}
     * is the rest of the chain, whose {@code getUrl()} is the URL of the invoker inside.
     */
    Result invoke(Invoker<?> next, Invocation invocation) throws RpcException;
}
