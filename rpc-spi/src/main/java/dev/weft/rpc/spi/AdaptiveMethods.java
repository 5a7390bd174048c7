package dev.weft.rpc.spi;

import dev.weft.rpc.spi.internal.AdaptiveMethod;

import java.lang.invoke.MethodType;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * Reads the {@link Adaptive} methods of an extension point into the dispatch plan the generated
 * class follows. Stateless.
 */
final class AdaptiveMethods {

    private static final Comparator<Method> ORDER = new Comparator<>() {
        @Override
        public int compare(Method a, Method b) {
            int byName = a.getName().compareTo(b.getName());
            return byName != 0 ? byName : descriptor(a).compareTo(descriptor(b));
        }
    };

    private AdaptiveMethods() {
    }

    /**
     * The methods an adaptive class of {@code type} implements, in a fixed order (the index used by
     * generated code): every abstract method, and default methods only when annotated.
     *
     * @throws IllegalStateException when no method is adaptive or an adaptive one cannot find a URL
     */
    static List<AdaptiveMethod> of(Class<?> type) {
        List<AdaptiveMethod> methods = new ArrayList<>();
        boolean anyAdaptive = false;
        Method[] all = type.getMethods();
        Arrays.sort(all, ORDER);
        for (Method method : all) {
            if (Modifier.isStatic(method.getModifiers())) {
                continue;
            }
            Adaptive annotation = method.getAnnotation(Adaptive.class);
            if (annotation == null && method.isDefault()) {
                continue; // keep the interface's own default behaviour
            }
            AdaptiveMethod adaptive = AdaptiveMethod.of(type, method, annotation == null ? null : annotation.value());
            anyAdaptive |= adaptive.adaptive();
            methods.add(adaptive);
        }
        if (!anyAdaptive) {
            throw new IllegalStateException("Adaptive extension of " + type.getName()
                    + ": none (expected: an @Adaptive method on the interface, or an @Adaptive class in its descriptor)");
        }
        return methods;
    }

    static boolean hasAny(Class<?> type) {
        for (Method method : type.getMethods()) {
            if (method.isAnnotationPresent(Adaptive.class)) {
                return true;
            }
        }
        return false;
    }

    private static String descriptor(Method method) {
        return MethodType.methodType(method.getReturnType(), method.getParameterTypes()).toMethodDescriptorString();
    }
}
