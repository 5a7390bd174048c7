package dev.weft.rpc.proxy;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.proxy.internal.JdkProxies;

/**
 * The {@link ProxyFactory} built on the JDK alone ({@code proxy=jdk}).
 *
 * <ul>
 *   <li>{@link #getProxy}: a {@link java.lang.reflect.Proxy}; its handler maps the called
 *       {@code Method} to the method index with one hash lookup and then behaves exactly like
 *       the {@code javassist} proxy.</li>
 *   <li>{@link #getInvoker}: calls the implementation through {@link java.lang.invoke.MethodHandle}s
 *       of the interface methods, resolved once per interface.</li>
 * </ul>
 * Pick it when bytecode generation is unwanted or impossible (an interface whose class loader
 * cannot see Weft, a package not open to Weft); it is somewhat slower per call.
 *
 * <p>Stateless and thread-safe.
 */
public class JdkProxyFactory implements ProxyFactory {

    /** The extension name. */
    public static final String NAME = "jdk";

    public JdkProxyFactory() {
        // stateless: method tables are cached per interface
    }

    @Override
    public <T> T getProxy(Invoker<T> invoker) throws RpcException {
        return JdkProxies.proxy(invoker);
    }

    @Override
    public <T> Invoker<T> getInvoker(T impl, Class<T> type, URL url) throws RpcException {
        return JdkProxies.invoker(impl, type, url);
    }

    @Override
    public String toString() {
        return NAME;
    }
}
