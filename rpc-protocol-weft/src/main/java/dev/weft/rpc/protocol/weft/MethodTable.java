package dev.weft.rpc.protocol.weft;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The public methods of a service interface keyed by name and parameter descriptor
 * ({@code find(java.lang.String,int)}). Both ends build it from their own interface; a call names
 * its method by that key, which is only ever looked up here, never resolved to a class.
 * Immutable and thread-safe.
 */
final class MethodTable {

    private final Class<?> type;
    private final Map<String, Method> methods;
    private final Map<String, List<Method>> byName;

    // Plain JDK maps: a table is built at every refer, on the way to the first call, where
    // Guava's multimaps would be dozens of extra classes to load.
    MethodTable(Class<?> type) {
        this.type = type;
        Map<String, Method> byKey = new HashMap<>();
        for (Method method : type.getMethods()) {
            if (!Modifier.isStatic(method.getModifiers()) && method.getDeclaringClass() != Object.class) {
                byKey.put(key(method.getName(), method.getParameterTypes()), method);
            }
        }
        Map<String, List<Method>> named = new HashMap<>();
        for (Method method : byKey.values()) {
            named.computeIfAbsent(method.getName(), name -> new ArrayList<>(1)).add(method);
        }
        named.replaceAll((name, overloads) -> List.copyOf(overloads));
        this.methods = Map.copyOf(byKey);
        this.byName = Map.copyOf(named);
    }

    /** The comma-separated parameter type names ({@code java.lang.String,int}). */
    static String descriptor(Class<?>[] parameterTypes) {
        StringBuilder descriptor = new StringBuilder(16 * parameterTypes.length);
        for (int i = 0; i < parameterTypes.length; i++) {
            if (i > 0) {
                descriptor.append(',');
            }
            descriptor.append(parameterTypes[i].getTypeName());
        }
        return descriptor.toString();
    }

    static String key(String name, Class<?>[] parameterTypes) {
        return key(name, descriptor(parameterTypes));
    }

    static String key(String name, String descriptor) {
        return name + '(' + descriptor + ')';
    }

    /** The method with this name and these parameter types, or {@code null} (the consumer's lookup). */
    Method find(String name, Class<?>[] parameterTypes) {
        for (Method method : byName.getOrDefault(name, List.of())) {
            if (method.getParameterCount() == parameterTypes.length
                    && Arrays.equals(method.getParameterTypes(), parameterTypes)) {
                return method;
            }
        }
        return null;
    }

    /** The method, or {@code null} when the interface has none by that name and descriptor. */
    Method find(String name, String descriptor) {
        return methods.get(key(name, descriptor));
    }

    /** Every method of the interface, in no particular order. */
    Collection<Method> methods() {
        return methods.values();
    }

    Class<?> type() {
        return type;
    }

    /** The method keys, sorted, for error messages. */
    String available() {
        return methods.keySet().stream().sorted().collect(Collectors.joining(", ", "[", "]"));
    }
}
