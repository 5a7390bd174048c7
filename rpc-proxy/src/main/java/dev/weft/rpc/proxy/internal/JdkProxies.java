package dev.weft.rpc.proxy.internal;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.lang.reflect.Proxy;

/**
 * The {@code jdk} factory's work: {@link Proxy} instances whose handler shares the
 * {@link ProxyHandler} semantics, and invokers dispatching through {@link MethodHandleDispatcher}.
 *
 * <p>Thread-safe.
 */
public final class JdkProxies {

    private JdkProxies() {
    }

    /** A {@link Proxy} sending every call of {@code invoker.getInterface()} to {@code invoker}. */
    public static <T> T proxy(Invoker<T> invoker) {
        Class<T> type = Checks.proxyInterface(invoker);
        ClassLoader loader = type.getClassLoader() != null ? type.getClassLoader() : JdkProxies.class.getClassLoader();
        ProxyHandler handler = new ProxyHandler(invoker, ServiceMethods.of(type));
        return type.cast(Proxy.newProxyInstance(loader, new Class<?>[] {type}, new JdkInvocationHandler(handler)));
    }

    /** An invoker calling {@code impl} through method handles resolved once per interface. */
    public static <T> Invoker<T> invoker(T impl, Class<T> type, URL url) {
        Checks.invokerArguments(impl, type, url);
        return new DispatchingInvoker<>("jdk", impl, type, url, MethodHandleDispatcher.of(type));
    }
}
