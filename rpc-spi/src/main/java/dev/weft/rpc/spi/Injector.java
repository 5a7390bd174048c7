package dev.weft.rpc.spi;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.function.Function;

/**
 * Setter injection: every public {@code setX(T)} whose parameter type is an {@link SPI}
 * interface receives that type's adaptive extension, unless annotated {@link DisableInject}.
 * A failure is an error naming the setter, never a silent {@code null}. Stateless.
 */
final class Injector {

    private Injector() {
    }

    public static void inject(Object instance, Function<Class<?>, Object> adaptiveOf) {
        for (Method method : instance.getClass().getMethods()) {
            if (!isInjectionSetter(method)) {
                continue;
            }
            Class<?> dependency = method.getParameterTypes()[0];
            Object adaptive;
            try {
                adaptive = adaptiveOf.apply(dependency);
            } catch (RuntimeException e) {
                throw new IllegalStateException("Injection into " + instance.getClass().getName() + "." + method.getName()
                        + ": cannot get the adaptive " + dependency.getName() + " (" + e.getMessage() + ")", e);
            }
            try {
                method.invoke(instance, adaptive);
            } catch (InvocationTargetException e) {
                throw new IllegalStateException("Injection into " + instance.getClass().getName() + "." + method.getName()
                        + ": the setter threw " + e.getCause(), e.getCause());
            } catch (IllegalAccessException e) {
                throw new IllegalStateException("Injection into " + instance.getClass().getName() + "." + method.getName()
                        + ": not accessible (" + e.getMessage() + ")", e);
            }
        }
    }

    private static boolean isInjectionSetter(Method method) {
        return method.getName().startsWith("set")
                && method.getName().length() > 3
                && method.getParameterCount() == 1
                && Modifier.isPublic(method.getModifiers())
                && !Modifier.isStatic(method.getModifiers())
                && method.getParameterTypes()[0].isInterface()
                && method.getParameterTypes()[0].isAnnotationPresent(SPI.class)
                && !method.isAnnotationPresent(DisableInject.class);
    }
}
