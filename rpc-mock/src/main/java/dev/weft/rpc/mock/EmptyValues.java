package dev.weft.rpc.mock;

import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Array;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.NavigableSet;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Queue;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * The value of {@code return empty} for a type: empty collection, map, array, stream or
 * {@code Optional}; {@code ""}; zero or {@code false} for primitives and their boxes; a bean or
 * record read from {@code {}} (missing fields default); {@code null} for anything else (enums,
 * interfaces, types Jackson cannot build). Mutable values are created fresh for every call so
 * callers never share them. Thread-safe.
 */
final class EmptyValues {

    private static final Map<Class<?>, Object> ZEROS = Map.ofEntries(
            Map.entry(int.class, 0), Map.entry(Integer.class, 0),
            Map.entry(long.class, 0L), Map.entry(Long.class, 0L),
            Map.entry(short.class, (short) 0), Map.entry(Short.class, (short) 0),
            Map.entry(byte.class, (byte) 0), Map.entry(Byte.class, (byte) 0),
            Map.entry(char.class, '\0'), Map.entry(Character.class, '\0'),
            Map.entry(float.class, 0f), Map.entry(Float.class, 0f),
            Map.entry(double.class, 0d), Map.entry(Double.class, 0d),
            Map.entry(boolean.class, false), Map.entry(Boolean.class, false),
            Map.entry(String.class, ""), Map.entry(CharSequence.class, ""),
            Map.entry(BigDecimal.class, BigDecimal.ZERO), Map.entry(BigInteger.class, BigInteger.ZERO),
            Map.entry(Number.class, 0),
            Map.entry(Optional.class, Optional.empty()), Map.entry(OptionalInt.class, OptionalInt.empty()),
            Map.entry(OptionalLong.class, OptionalLong.empty()), Map.entry(OptionalDouble.class, OptionalDouble.empty()));

    private final ObjectMapper mapper;

    EmptyValues(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    /** A supplier of the empty value of {@code type}; never fails, falls back to {@code null}. */
    Supplier<Object> of(JavaType type) {
        Class<?> raw = type.getRawClass();
        if (ZEROS.containsKey(raw)) {
            Object zero = ZEROS.get(raw);
            return () -> zero;
        }
        if (raw.isArray()) {
            Object array = Array.newInstance(raw.getComponentType(), 0);
            return () -> array;
        }
        if (raw == Stream.class) {
            return Stream::empty;
        }
        Supplier<Object> collection = collection(raw);
        if (collection != null) {
            return collection;
        }
        if (raw.isEnum() || raw.isInterface() || raw.isPrimitive() || raw == Object.class || raw == Void.class) {
            return () -> null;
        }
        return bean(type);
    }

    private static Supplier<Object> collection(Class<?> raw) {
        if (raw.isInterface()) {
            if (raw == NavigableSet.class || raw == SortedSet.class) {
                return TreeSet::new;
            }
            if (raw == Set.class) {
                return LinkedHashSet::new;
            }
            if (raw == List.class || raw == Collection.class || raw == Iterable.class) {
                return ArrayList::new;
            }
            if (raw == Queue.class || raw == Deque.class) {
                return ArrayDeque::new;
            }
            if (raw == NavigableMap.class || raw == SortedMap.class) {
                return TreeMap::new;
            }
            if (raw == ConcurrentMap.class) {
                return ConcurrentHashMap::new;
            }
            if (raw == Map.class) {
                return LinkedHashMap::new;
            }
            return null;
        }
        if ((Collection.class.isAssignableFrom(raw) || Map.class.isAssignableFrom(raw))
                && !Modifier.isAbstract(raw.getModifiers()) && Modifier.isPublic(raw.getModifiers())) {
            try {
                Constructor<?> constructor = raw.getConstructor();
                return () -> {
                    try {
                        return constructor.newInstance();
                    } catch (InstantiationException | IllegalAccessException | InvocationTargetException e) {
                        throw new IllegalStateException("empty " + raw.getName() + ": " + e, e);
                    }
                };
            } catch (NoSuchMethodException e) {
                return null;
            }
        }
        return null;
    }

    private Supplier<Object> bean(JavaType type) {
        ObjectReader reader = mapper.readerFor(type).without(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES);
        try {
            reader.readValue(mapper.createObjectNode());
        } catch (IOException | RuntimeException e) {
            return () -> null;
        }
        return () -> {
            try {
                return reader.readValue(mapper.createObjectNode());
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }
}
