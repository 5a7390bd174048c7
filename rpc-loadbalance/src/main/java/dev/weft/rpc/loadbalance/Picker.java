package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;

/**
 * Picks the provider of one call among the invokers of one directory state, for one method.
 *
 * <p>Built by {@link LoadBalance#picker} once per state and method, so everything that depends only
 * on the state (weights, a hash ring, the statistics objects) is computed when it is built, and a
 * pick reads only what changes per call: the invocation and live counters. A picker never caches a
 * decision. It may hold thread-safe mutable state of its own (the current weights of smooth round
 * robin), which starts afresh with each state.
 *
 * <p>Implementations are thread-safe: one picker serves every thread calling that method.
 *
 * @param <T> the service interface
 */
@FunctionalInterface
public interface Picker<T> {

    /**
     * The invoker that serves {@code invocation}: one of the invokers the picker was built with.
     *
     * @throws RpcException with {@link RpcException#NO_INVOKER_AVAILABLE} when no invoker may be picked
     */
    Invoker<T> pick(Invocation invocation) throws RpcException;
}
