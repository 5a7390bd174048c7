package dev.weft.rpc.proxy.internal;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.util.HashMap;
import java.util.Map;

/**
 * The {@link InvocationHandler} of {@code jdk} proxies: maps the {@link Method} the JDK passes
 * to its index (one hash lookup, no reflection) and delegates to the shared {@link ProxyHandler},
 * so both factories behave the same.
 *
 * <p>Immutable and thread-safe.
 */
final class JdkInvocationHandler implements InvocationHandler {

    private static final PerInterfaceCache<Map<Method, ServiceMethod>> INDEXES =
            new PerInterfaceCache<>(JdkInvocationHandler::indexMethods);

    private final ProxyHandler handler;
    private final Map<Method, ServiceMethod> index;

    JdkInvocationHandler(ProxyHandler handler) {
        this.handler = handler;
        this.index = INDEXES.get(handler.methods().type());
    }

    private static Map<Method, ServiceMethod> indexMethods(Class<?> type) {
        ServiceMethods methods = ServiceMethods.of(type);
        Map<Method, ServiceMethod> map = new HashMap<>();
        for (ServiceMethods.Binding binding : methods.bindings()) {
            map.put(binding.method(), methods.get(binding.index()));
        }
        return Map.copyOf(map);
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        ServiceMethod target = index.get(method);
        if (target != null) {
            return handler.invoke(target.index(), args);
        }
        if (ServiceMethods.isObjectMethod(method)) {
            switch (method.getName()) {
                case "toString":
                    return handler.proxyToString();
                case "hashCode":
                    return handler.proxyHashCode(proxy);
                default:
                    return handler.proxyEquals(proxy, args[0]);
            }
        }
        target = handler.methods().find(method.getName(), method.getParameterTypes());
        if (target == null) {
            throw new IllegalStateException("Method: " + method + " (expected: one of "
                    + handler.methods().signatures() + ")");
        }
        return handler.invoke(target.index(), args);
    }
}
