package dev.weft.rpc.proxy;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.proxy.internal.JavassistProxies;

/**
 * The default {@link ProxyFactory} ({@code proxy=javassist}): generates bytecode, once per
 * interface, with javassist.
 *
 * <ul>
 *   <li>{@link #getProxy}: a proxy class whose methods know their method index statically and
 *       call the shared handler with the boxed arguments: no reflection, no map lookup per call.</li>
 *   <li>{@link #getInvoker}: a dispatcher class that switches on the method index and calls the
 *       implementation through the interface, so non-public and generated implementation
 *       classes work.</li>
 * </ul>
 * Generated classes are defined next to the interface (same class loader and package), so
 * package-private interfaces work on Java 17 without {@code --add-opens}; they are cached with
 * the interface and never keep its class loader alive. Interfaces in {@code java.*} packages
 * get their classes in Weft's package instead.
 *
 * <p>Stateless and thread-safe; concurrent first uses generate one class.
 */
public class JavassistProxyFactory implements ProxyFactory {

    /** The extension name. */
    public static final String NAME = "javassist";

    public JavassistProxyFactory() {
        // stateless: the generated classes are cached per interface
    }

    @Override
    public <T> T getProxy(Invoker<T> invoker) throws RpcException {
        return JavassistProxies.proxy(invoker);
    }

    @Override
    public <T> Invoker<T> getInvoker(T impl, Class<T> type, URL url) throws RpcException {
        return JavassistProxies.invoker(impl, type, url);
    }

    @Override
    public String toString() {
        return NAME;
    }
}
