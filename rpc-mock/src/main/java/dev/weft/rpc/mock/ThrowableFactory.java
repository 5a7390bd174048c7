package dev.weft.rpc.mock;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;

/**
 * Makes a fresh instance of the exception named by {@code throw <class>} for every call (so no
 * instance with a stale stack trace is shared). The class is checked before it is ever
 * initialised: it must be a concrete, public {@link Throwable} with a public constructor taking a
 * {@code String} (preferred; it receives the degradation message) or no arguments, and neither a
 * {@link VirtualMachineError} nor a {@link LinkageError}: those say the JVM or the class path is
 * broken, and callers (cluster strategies among them) rightly treat them as fatal, so a mock
 * that raised one would turn a degraded service into a dying consumer.
 *
 * <p>Immutable and thread-safe.
 */
final class ThrowableFactory {

    /** Errors a mock may not raise. */
    private static final java.util.List<Class<? extends Error>> FATAL = java.util.List.of(VirtualMachineError.class,
            LinkageError.class);

    private final Class<? extends Throwable> type;
    private final Constructor<? extends Throwable> constructor;
    private final boolean takesMessage;

    private ThrowableFactory(Class<? extends Throwable> type, Constructor<? extends Throwable> constructor, boolean takesMessage) {
        this.type = type;
        this.constructor = constructor;
        this.takesMessage = takesMessage;
    }

    /**
     * Resolves {@code name} with {@code loader}; runs no code of the class.
     *
     * @throws Rejection when the class is missing, not a Throwable, abstract, not public, in a
     *                   package not exported to rpc-mock, or has no usable constructor
     */
    static ThrowableFactory resolve(String name, ClassLoader loader, int position) throws Rejection {
        String expected = "a public, concrete java.lang.Throwable class with a public (String) or () constructor";
        Class<?> loaded = SafeClassLoading.load(name, loader, expected, position);
        if (!Throwable.class.isAssignableFrom(loaded)) {
            throw new Rejection(expected, position, loaded.getName() + " is not a java.lang.Throwable");
        }
        for (Class<?> fatal : FATAL) {
            if (fatal.isAssignableFrom(loaded)) {
                throw new Rejection(expected + ", not a " + fatal.getName(), position, loaded.getName() + " is a "
                        + fatal.getName() + ", which reports a broken JVM or class path, not a degraded service");
            }
        }
        if (!Modifier.isPublic(loaded.getModifiers()) || Modifier.isAbstract(loaded.getModifiers())) {
            throw new Rejection(expected, position, loaded.getName() + " is " + (Modifier.isAbstract(loaded.getModifiers())
                    ? "abstract" : "not public"));
        }
        String notExported = SafeClassLoading.notExported(loaded);
        if (notExported != null) {
            throw new Rejection(expected, position, notExported);
        }
        Class<? extends Throwable> type = loaded.asSubclass(Throwable.class);
        try {
            return new ThrowableFactory(type, type.getConstructor(String.class), true);
        } catch (NoSuchMethodException e) {
            try {
                return new ThrowableFactory(type, type.getConstructor(), false);
            } catch (NoSuchMethodException e2) {
                throw new Rejection(expected, position, type.getName() + " has neither a public (String) nor a public () constructor");
            }
        }
    }

    Class<? extends Throwable> type() {
        return type;
    }

    /** Whether {@code method} may throw this exception type: unchecked, or declared by it. */
    boolean fits(Method method) {
        if (RuntimeException.class.isAssignableFrom(type) || Error.class.isAssignableFrom(type)) {
            return true;
        }
        for (Class<?> declared : method.getExceptionTypes()) {
            if (declared.isAssignableFrom(type)) {
                return true;
            }
        }
        return false;
    }

    /**
     * A new instance carrying {@code message} when the class takes one.
     *
     * @throws IllegalStateException when the constructor fails (the class's own fault)
     */
    Throwable newInstance(String message) {
        try {
            return takesMessage ? constructor.newInstance(message) : constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("mock exception " + type.getName() + " could not be created: " + e.getCause(), e.getCause());
        } catch (InstantiationException | IllegalAccessException | RuntimeException | LinkageError e) {
            throw new IllegalStateException("mock exception " + type.getName() + " could not be created: " + e, e);
        }
    }
}
