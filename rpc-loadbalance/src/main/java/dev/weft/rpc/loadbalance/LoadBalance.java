package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.Adaptive;
import dev.weft.rpc.spi.SPI;

import java.util.List;

/**
 * Picks the provider invoker that serves one call.
 *
 * <p>Implementations are named extensions ({@code random} by default, {@code roundrobin},
 * {@code leastactive}, {@code shortestresponse}, {@code consistenthash}, {@code p2c}) chosen by
 * the consumer URL key {@code loadbalance} (method level {@code <method>.loadbalance} first).
 * Every implementation is a singleton shared by all threads and all services, so it must be
 * thread-safe.
 */
@SPI("random")
public interface LoadBalance {

    /**
     * Selects one invoker from {@code invokers}.
     *
     * @param invokers   the candidates (never modified; treat as an immutable snapshot)
     * @param url        the consumer URL: its keys configure the balancer
     * @param invocation the call being routed
     * @return one of {@code invokers}
     * @throws RpcException with code {@link RpcException#NO_INVOKER_AVAILABLE} when the list is empty
     * @throws IllegalArgumentException when a URL key the balancer reads is malformed (e.g. a
     *         negative {@code weight}); retrying another invoker cannot fix that
     */
    @Adaptive("loadbalance")
    <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) throws RpcException;
}
