package dev.weft.rpc.proxy.internal;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodType;

/**
 * The {@code javassist} factory's work: one generated proxy class and one generated dispatcher
 * class per interface (see {@link ProxyClassGenerator}, {@link DispatcherClassGenerator}),
 * generated on first use by exactly one thread and cached with the interface. An interface too
 * large for one generated dispatch method is dispatched through method handles instead
 * ({@link MethodHandleDispatcher}), with the same behaviour.
 *
 * <p>Thread-safe.
 */
public final class JavassistProxies {

    private static final Logger LOG = LoggerFactory.getLogger(JavassistProxies.class);
    private static final MethodType CONSTRUCTOR_TYPE = MethodType.methodType(Object.class, ProxyHandler.class);
    private static final PerInterfaceCache<MethodHandle> PROXY_CONSTRUCTORS =
            new PerInterfaceCache<>(JavassistProxies::generateProxyClass);
    private static final PerInterfaceCache<MethodDispatcher> DISPATCHERS =
            new PerInterfaceCache<>(JavassistProxies::generateDispatcher);

    private JavassistProxies() {
    }

    /** A generated proxy sending every call of {@code invoker.getInterface()} to {@code invoker}. */
    public static <T> T proxy(Invoker<T> invoker) {
        Class<T> type = Checks.proxyInterface(invoker);
        ProxyHandler handler = new ProxyHandler(invoker, ServiceMethods.of(type));
        MethodHandle constructor = PROXY_CONSTRUCTORS.get(type);
        try {
            return type.cast((Object) constructor.invokeExact(handler));
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new RpcException("Proxy of " + type.getName() + ": constructor failed", e);
        }
    }

    /** An invoker calling {@code impl} through a generated dispatcher. */
    public static <T> Invoker<T> invoker(T impl, Class<T> type, URL url) {
        Checks.invokerArguments(impl, type, url);
        return new DispatchingInvoker<>("javassist", impl, type, url, DISPATCHERS.get(type));
    }

    private static MethodHandle generateProxyClass(Class<?> type) {
        ServiceMethods methods = ServiceMethods.of(type);
        ClassDefiner.Defined defined = ClassDefiner.define(type, "WeftProxy",
                ProxyClassGenerator.runtimeDependencies(), name -> ProxyClassGenerator.generate(name, methods));
        try {
            return defined.lookup()
                    .findConstructor(defined.type(), MethodType.methodType(void.class, ProxyHandler.class))
                    .asType(CONSTRUCTOR_TYPE);
        } catch (ReflectiveOperationException e) {
            throw new RpcException("Generated proxy class: " + defined.type().getName()
                    + " (expected: a public constructor taking ProxyHandler)", e);
        }
    }

    private static MethodDispatcher generateDispatcher(Class<?> type) {
        ServiceMethods methods = ServiceMethods.of(type);
        if (!DispatcherClassGenerator.fits(methods)) {
            LOG.info("{} has too many methods ({}) for one generated dispatch method of at most {} bytes;"
                    + " its javassist invokers call through method handles, as proxy=jdk does",
                    type.getName(), methods.size(), DispatcherClassGenerator.MAX_CODE_LENGTH);
            return MethodHandleDispatcher.of(type);
        }
        ClassDefiner.Defined defined = ClassDefiner.define(type, "WeftDispatcher",
                DispatcherClassGenerator.runtimeDependencies(), name -> DispatcherClassGenerator.generate(name, methods));
        try {
            return (MethodDispatcher) defined.lookup()
                    .findConstructor(defined.type(), MethodType.methodType(void.class))
                    .invoke();
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new RpcException("Generated dispatcher class: " + defined.type().getName()
                    + " (expected: a public no-arg constructor)", e);
        }
    }
}
