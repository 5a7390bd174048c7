package dev.weft.rpc.mock;

import dev.weft.rpc.mock.internal.MockValue;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.databind.node.TextNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.Type;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Turns a parsed {@link MockValue} into a supplier of values of a method's generic return type,
 * using a locked-down Jackson mapper (see {@link MockJson}). Conversion is tried once when the
 * expression is checked, so a value that cannot become the type fails then, not on the first
 * outage. Immutable results (strings, numbers, booleans, enums, {@code null}) are shared;
 * anything mutable is converted afresh for each call so callers never share an instance. A
 * {@code CompletableFuture<T>} (or {@code CompletionStage<T>}, {@code Future<T>}) return type gets
 * a completed future of a {@code T}; an {@code Optional<T>} gets {@code Optional.ofNullable} of a
 * {@code T} (so {@code null} becomes {@code Optional.empty()}), and {@code OptionalInt},
 * {@code OptionalLong} and {@code OptionalDouble} likewise wrap an {@code int}, {@code long} or
 * {@code double}; futures and optionals nest ({@code CompletableFuture<Optional<T>>}). Numbers
 * are exact or rejected: a decimal never becomes an integral type, a {@code BigDecimal} keeps
 * every digit and its scale, an integral value out of its type's range fails; a {@code float} or
 * {@code double} gets the nearest value, as a Java literal would, and a number beyond its range
 * fails.
 *
 * <p>Thread-safe.
 */
final class MockValueConverter {

    private static final Set<Class<?>> IMMUTABLE = Set.of(String.class, Integer.class, Long.class, Short.class,
            Byte.class, Character.class, Boolean.class, Float.class, Double.class, BigDecimal.class, BigInteger.class);

    private static final Set<Class<?>> INTEGRAL = Set.of(int.class, Integer.class, long.class, Long.class, short.class,
            Short.class, byte.class, Byte.class, BigInteger.class);

    private final ObjectMapper mapper;
    private final EmptyValues empties;

    MockValueConverter(ObjectMapper mapper) {
        this.mapper = mapper;
        this.empties = new EmptyValues(mapper);
    }

    /**
     * A supplier of {@code value} as {@code returnType}.
     *
     * @param position where the value starts in the expression, for errors
     * @throws Rejection when the value cannot become that type
     */
    Supplier<Object> compile(MockValue value, Type returnType, int position) throws Rejection {
        return compileWrapped(value, mapper.getTypeFactory().constructType(returnType), position, returnType.getTypeName());
    }

    /** Unwraps futures and optionals (at any depth) around the type Jackson converts to. */
    private Supplier<Object> compileWrapped(MockValue value, JavaType type, int position, String declared) throws Rejection {
        Class<?> raw = type.getRawClass();
        if (raw == CompletableFuture.class || raw == CompletionStage.class || raw == Future.class) {
            Supplier<Object> element = compileWrapped(value, type.containedTypeOrUnknown(0), position, declared);
            return () -> CompletableFuture.completedFuture(element.get());
        }
        if (value instanceof MockValue.Empty) {
            return compile(value, type, position, declared);
        }
        if (raw == Optional.class) {
            Supplier<Object> element = compileWrapped(value, type.containedTypeOrUnknown(0), position, declared);
            return () -> Optional.ofNullable(element.get());
        }
        if (raw == OptionalInt.class) {
            Supplier<Object> element = compile(value, boxed(Integer.class), position, declared);
            return () -> element.get() instanceof Integer i ? OptionalInt.of(i) : OptionalInt.empty();
        }
        if (raw == OptionalLong.class) {
            Supplier<Object> element = compile(value, boxed(Long.class), position, declared);
            return () -> element.get() instanceof Long l ? OptionalLong.of(l) : OptionalLong.empty();
        }
        if (raw == OptionalDouble.class) {
            Supplier<Object> element = compile(value, boxed(Double.class), position, declared);
            return () -> element.get() instanceof Double d ? OptionalDouble.of(d) : OptionalDouble.empty();
        }
        return compile(value, type, position, declared);
    }

    private JavaType boxed(Class<?> type) {
        return mapper.getTypeFactory().constructType(type);
    }

    private Supplier<Object> compile(MockValue value, JavaType type, int position, String declared) throws Rejection {
        Class<?> raw = type.getRawClass();
        if (raw == void.class || raw == Void.class) {
            return () -> null;
        }
        if (value instanceof MockValue.Null) {
            if (raw.isPrimitive()) {
                throw new Rejection(expected(declared), position, "null cannot become the primitive " + raw.getName());
            }
            return () -> null;
        }
        if (value instanceof MockValue.Empty) {
            return empties.of(type);
        }
        JsonNode node = value instanceof MockValue.Json json ? json.tree() : TextNode.valueOf(((MockValue.Text) value).value());
        if (raw == Object.class && value instanceof MockValue.Text) {
            String text = ((MockValue.Text) value).value();
            return () -> text;
        }
        if (node.isFloatingPointNumber() && INTEGRAL.contains(raw)) {
            throw new Rejection(expected(declared), position, "the decimal " + node.asText()
                    + " cannot become " + raw.getName() + " exactly (write an integer)");
        }
        ObjectReader reader = mapper.readerFor(type);
        Object first;
        try {
            first = reader.readValue(node);
        } catch (JsonProcessingException e) {
            throw new Rejection(expected(declared), position, e.getOriginalMessage());
        } catch (IOException | RuntimeException e) {
            throw new Rejection(expected(declared), position, e.toString());
        }
        if (first == null) {
            if (raw.isPrimitive()) {
                throw new Rejection(expected(declared), position, "null cannot become the primitive " + raw.getName());
            }
            return () -> null;
        }
        if ((first instanceof Double d && d.isInfinite()) || (first instanceof Float f && f.isInfinite())) {
            throw new Rejection(expected(declared), position, "the number is out of the range of " + raw.getName());
        }
        if (IMMUTABLE.contains(first.getClass()) || first instanceof Enum) {
            return () -> first;
        }
        return () -> {
            try {
                return reader.readValue(node);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        };
    }

    private static String expected(String declared) {
        return "a value of type " + declared;
    }
}
