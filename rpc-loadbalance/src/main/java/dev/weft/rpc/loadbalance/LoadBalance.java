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
 *
 * <p>Two ways in: a cluster builds a {@link Picker} with {@link #picker} once per directory state
 * and method and calls {@link Picker#pick} per call; {@link #select} answers one call for any list
 * (it may keep derived data only when it checks it against the list's current content).
 */
@SPI("random")
public interface LoadBalance {

    /**
     * Selects one invoker from {@code invokers}. Correct for any list, including a mutable list
     * changed in place between calls.
     *
     * @param invokers   the candidates (never modified)
     * @param url        the consumer URL: its keys configure the balancer
     * @param invocation the call being routed
     * @return one of {@code invokers}
     * @throws RpcException with code {@link RpcException#NO_INVOKER_AVAILABLE} when the list is empty
     *         (or no invoker in it may be picked)
     * @throws IllegalArgumentException when a consumer URL key the balancer reads is malformed
     */
    @Adaptive("loadbalance")
    <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) throws RpcException;

    /**
     * A picker for calls of {@code methodName} among {@code invokers} under consumer URL
     * {@code url}, reading call statistics from {@code stats}. The caller promises that the list
     * does not change while the picker is used (a directory state is immutable); the picker reads
     * the consumer URL's keys once, here, so a malformed one throws here rather than per call.
     *
     * <p>The default answers every pick with {@link #select} on a copy of the list: correct for
     * any balancer, and what a balancer gets that has nothing to precompute.
     *
     * @throws IllegalArgumentException when a consumer URL key the balancer reads is malformed
     */
    default <T> Picker<T> picker(List<Invoker<T>> invokers, URL url, String methodName, CallStats stats) {
        List<Invoker<T>> copy = List.copyOf(invokers);
        return invocation -> select(copy, url, invocation);
    }
}
