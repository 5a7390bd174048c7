package dev.weft.rpc.mock;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;

/**
 * A mock implementation class of a service interface, checked before it is ever initialised: it
 * must exist in the interface's class loader, implement the interface, be public and concrete and
 * have a public no-argument constructor. {@code default}/{@code true}/{@code fail}/{@code force}
 * name {@code <Interface>Mock} by binary name ({@code Outer$ServiceMock} for a nested interface).
 *
 * <p>Immutable and thread-safe; {@link #newInstance()} initialises the class on first use.
 */
final class MockClassBinding {

    private final Class<?> type;
    private final Constructor<?> constructor;

    private MockClassBinding(Class<?> type, Constructor<?> constructor) {
        this.type = type;
        this.constructor = constructor;
    }

    /** The binary name {@code default} stands for: {@code <interface binary name>Mock}. */
    static String defaultName(Class<?> serviceInterface) {
        return serviceInterface.getName() + "Mock";
    }

    /**
     * Resolves {@code name} (or {@link #defaultName} when {@code null}) for {@code serviceInterface}.
     *
     * @throws Rejection when the class is missing or unfit; no code of it has run
     */
    static MockClassBinding resolve(String name, Class<?> serviceInterface, int position) throws Rejection {
        String className = name == null ? defaultName(serviceInterface) : name;
        String expected = "a public, concrete class implementing " + serviceInterface.getName()
                + " with a public no-argument constructor" + (name == null ? " (the default is " + className + ")" : "");
        Class<?> loaded = SafeClassLoading.load(className, serviceInterface.getClassLoader(), expected, position);
        if (!serviceInterface.isAssignableFrom(loaded)) {
            throw new Rejection(expected, position, loaded.getName() + " does not implement " + serviceInterface.getName());
        }
        int modifiers = loaded.getModifiers();
        if (loaded.isInterface() || Modifier.isAbstract(modifiers)) {
            throw new Rejection(expected, position, loaded.getName() + " is abstract");
        }
        if (!Modifier.isPublic(modifiers)) {
            throw new Rejection(expected, position, loaded.getName() + " is not public");
        }
        String notExported = SafeClassLoading.notExported(loaded);
        if (notExported != null) {
            throw new Rejection(expected, position, notExported);
        }
        try {
            return new MockClassBinding(loaded, loaded.getConstructor());
        } catch (NoSuchMethodException e) {
            throw new Rejection(expected, position, loaded.getName() + " has no public no-argument constructor");
        }
    }

    Class<?> type() {
        return type;
    }

    /**
     * A new instance; the first call initialises the class.
     *
     * @throws IllegalStateException when the constructor or static initialiser fails
     */
    Object newInstance() {
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("mock class " + type.getName() + " could not be created: " + e.getCause(), e.getCause());
        } catch (InstantiationException | IllegalAccessException | RuntimeException | LinkageError e) {
            throw new IllegalStateException("mock class " + type.getName() + " could not be created: " + e, e);
        }
    }
}
