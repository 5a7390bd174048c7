package dev.weft.rpc.common;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

/**
 * Which service methods are asynchronous, and the type of their value: a method declared to
 * return {@code CompletableFuture<T>} or {@code CompletionStage<T>} is asynchronous on both sides,
 * and its value travels and is decoded as {@code T}, never as the future. Stateless.
 */
public final class AsyncTypes {

    private AsyncTypes() {
    }

    /** Whether {@code returnType} is {@code CompletableFuture} or {@code CompletionStage}. */
    public static boolean isAsync(Class<?> returnType) {
        return returnType == CompletableFuture.class || returnType == CompletionStage.class;
    }

    /**
     * The type of the value: {@code T} for an asynchronous return type ({@code Object} for a raw
     * one, or a wildcard's upper bound), else {@code genericReturnType} itself.
     */
    public static Type valueType(Type genericReturnType) {
        if (genericReturnType instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw
                && isAsync(raw)) {
            Type argument = parameterized.getActualTypeArguments()[0];
            if (argument instanceof java.lang.reflect.WildcardType wildcard) {
                return wildcard.getUpperBounds()[0];
            }
            return argument;
        }
        if (genericReturnType instanceof Class<?> raw && isAsync(raw)) {
            return Object.class;
        }
        return genericReturnType;
    }

    /** The raw class of {@link #valueType}. */
    public static Class<?> valueClass(Type genericReturnType) {
        Type value = valueType(genericReturnType);
        if (value instanceof Class<?> type) {
            return type;
        }
        if (value instanceof ParameterizedType parameterized && parameterized.getRawType() instanceof Class<?> raw) {
            return raw;
        }
        if (value instanceof java.lang.reflect.GenericArrayType) {
            return Object[].class;
        }
        return Object.class;
    }
}
