package dev.weft.rpc.proxy;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.Adaptive;
import dev.weft.rpc.spi.SPI;

/**
 * Turns an {@link Invoker} into an object implementing the service interface (consumer side),
 * and a service implementation into an {@link Invoker} (provider side).
 *
 * <p>The factory is chosen by the URL key {@value #PROXY_KEY} ({@code javassist}, the default,
 * or {@code jdk}); the adaptive extension reads it from {@code invoker.getUrl()} for
 * {@link #getProxy} and from the {@code url} argument for {@link #getInvoker}.
 *
 * <p>Every implementation is a stateless, thread-safe singleton; the proxies and invokers it
 * returns are thread-safe.
 *
 * <h2>Proxy semantics (identical for every implementation)</h2>
 * <ul>
 *   <li>Each call of an interface method (default methods included) becomes one
 *       {@link dev.weft.rpc.common.RpcInvocation} carrying the method name, parameter types,
 *       arguments, return type and generic return type, passed to {@code invoker.invoke};
 *       {@code Result.recreate()} gives the value or the throw.</li>
 *   <li>A thrown {@link RuntimeException}, {@link Error} or checked exception declared by the
 *       method reaches the caller unchanged; an undeclared checked exception is wrapped in a
 *       {@link java.lang.reflect.UndeclaredThrowableException} whose cause is the original.</li>
 *   <li>A {@code null} result for a primitive return type, or a value of the wrong type, is an
 *       {@link RpcException} naming the method.</li>
 *   <li>{@code toString()} ({@code "<interface> proxy -> <invoker URL>"}), {@code hashCode()}
 *       (identity) and {@code equals(Object)} (identity) are answered by the proxy and never
 *       reach the invoker.</li>
 * </ul>
 */
@SPI("javassist")
public interface ProxyFactory {

    /** URL key naming the proxy factory; read by the adaptive extension. */
    String PROXY_KEY = "proxy";

    /**
     * A proxy implementing {@code invoker.getInterface()} that sends each call to {@code invoker}.
     *
     * @throws NullPointerException     if {@code invoker} is {@code null}
     * @throws IllegalArgumentException if the invoker's interface is {@code null} or not an interface
     * @throws RpcException             if the proxy class cannot be generated
     */
    @Adaptive(PROXY_KEY)
    <T> T getProxy(Invoker<T> invoker) throws RpcException;

    /**
     * An invoker calling {@code impl} through the methods of {@code type}. Exceptions raised by
     * {@code impl} are returned in the {@link dev.weft.rpc.common.Result}, never thrown; an
     * invocation of a method {@code type} does not have, or with arguments that do not fit its
     * parameter types, fails with an {@link RpcException}.
     *
     * @throws NullPointerException     if an argument is {@code null}
     * @throws IllegalArgumentException if {@code type} is not an interface or {@code impl} is not an instance of it
     * @throws RpcException             if the dispatcher cannot be generated
     */
    @Adaptive(PROXY_KEY)
    <T> Invoker<T> getInvoker(T impl, Class<T> type, URL url) throws RpcException;
}
