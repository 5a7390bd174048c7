package dev.weft.rpc.proxy.internal;

import dev.weft.rpc.common.RpcException;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Modifier;

/**
 * The {@code jdk} factory's {@link MethodDispatcher}: one {@link MethodHandle} per interface
 * method, resolved once per interface against the interface (so non-public and generated
 * implementation classes work), adapted to {@code (Object impl, Object[] args) -> Object}.
 *
 * <p>Immutable and thread-safe.
 */
final class MethodHandleDispatcher implements MethodDispatcher {

    private static final PerInterfaceCache<MethodHandleDispatcher> CACHE =
            new PerInterfaceCache<>(MethodHandleDispatcher::new);
    private static final MethodType SPREAD_TYPE = MethodType.methodType(Object.class, Object.class, Object[].class);

    private final MethodHandle[] handles;

    private MethodHandleDispatcher(Class<?> type) {
        ServiceMethods methods = ServiceMethods.of(type);
        MethodHandles.Lookup lookup = lookupFor(type);
        handles = new MethodHandle[methods.size()];
        for (int i = 0; i < handles.length; i++) {
            ServiceMethod method = methods.get(i);
            try {
                MethodHandle handle = lookup.findVirtual(type, method.name(),
                        MethodType.methodType(method.returnType(), method.parameterTypes())).asFixedArity();
                handles[i] = handle.asType(handle.type().generic())
                        .asSpreader(Object[].class, method.parameterTypes().length)
                        .asType(SPREAD_TYPE);
            } catch (ReflectiveOperationException e) {
                throw new RpcException("Method: " + method.qualifiedSignature()
                        + " (expected: accessible to Weft; " + e + ")", e);
            }
        }
    }

    /** The dispatcher for {@code type}, built once per interface. */
    public static MethodHandleDispatcher of(Class<?> type) {
        return CACHE.get(type);
    }

    private static MethodHandles.Lookup lookupFor(Class<?> type) {
        Module module = type.getModule();
        if (Modifier.isPublic(type.getModifiers()) && module.isExported(type.getPackageName())) {
            return MethodHandles.publicLookup();
        }
        try {
            return MethodHandles.privateLookupIn(type, MethodHandles.lookup());
        } catch (IllegalAccessException e) {
            throw new RpcException("Interface: " + type.getName()
                    + " (expected: public, or in a package opened to " + MethodHandleDispatcher.class.getModule()
                    + "; " + e.getMessage() + ")", e);
        }
    }

    @Override
    public Object dispatch(Object impl, int index, Object[] args) throws Throwable {
        return handles[index].invokeExact(impl, args);
    }
}
