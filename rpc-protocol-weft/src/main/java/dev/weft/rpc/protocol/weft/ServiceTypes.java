package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Serialization;

import java.lang.reflect.Method;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletionStage;

/**
 * The check, at export and refer, that a service's serialization carries every parameter and
 * return type of its methods, so that a method with a type it cannot carry is refused there,
 * naming the method and the type, not at its first call.
 */
final class ServiceTypes {

    private ServiceTypes() {
    }

    /**
     * @param action {@code export} or {@code refer}, for the message
     * @throws RpcException naming the first method (in name order) with a type the serialization refuses
     */
    static void check(String action, Class<?> type, Serialization serialization) {
        List<Method> methods = new MethodTable(type).methods().stream()
                .sorted(Comparator.comparing(Method::toGenericString)).toList();
        for (Method method : methods) {
            Type[] parameters = method.getGenericParameterTypes();
            for (int i = 0; i < parameters.length; i++) {
                check(action, type, serialization, method, "parameter " + i, parameters[i]);
            }
            check(action, type, serialization, method, "return type", valueType(method.getGenericReturnType()));
        }
    }

    private static void check(String action, Class<?> service, Serialization serialization, Method method,
                              String what, Type type) {
        try {
            serialization.checkSupported(type);
        } catch (IllegalArgumentException e) {
            throw new RpcException(RpcException.SERIALIZATION_EXCEPTION, action + ": " + service.getName() + "#"
                    + MethodTable.key(method.getName(), method.getParameterTypes()) + " " + what + " "
                    + type.getTypeName() + ": the " + serialization + " serialization cannot carry it: "
                    + e.getMessage(), e);
        }
    }

    /** What crosses the wire for a return type: the {@code T} of a {@code CompletionStage<T>} or {@code CompletableFuture<T>}. */
    private static Type valueType(Type returnType) {
        if (returnType instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw
                && CompletionStage.class.isAssignableFrom(raw)) {
            return parameterized.getActualTypeArguments()[0];
        }
        return returnType;
    }
}
