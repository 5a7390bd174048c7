package dev.weft.rpc.mock;

/**
 * Loads class names taken from URLs without running any of their code: always
 * {@code Class.forName(name, false, loader)} with the service interface's class loader, so no
 * static initialiser runs and nothing outside that loader's view is reachable. Callers check the
 * type before they instantiate (which is the first time the class initialises).
 */
final class SafeClassLoading {

    private SafeClassLoading() {
    }

    /**
     * Loads {@code name} without initialising it.
     *
     * @throws Rejection when it cannot be loaded
     */
    static Class<?> load(String name, ClassLoader loader, String expected, int position) throws Rejection {
        try {
            return Class.forName(name, false, loader);
        } catch (ClassNotFoundException e) {
            throw new Rejection(expected, position, "class " + name + " not found by " + describe(loader));
        } catch (LinkageError e) {
            throw new Rejection(expected, position, "class " + name + " cannot be loaded: " + e);
        }
    }

    /**
     * Why rpc-mock could not call the public members of {@code type} (its package is not exported
     * to rpc-mock's module), or {@code null} when it can; checked at join so an unusable class
     * fails then rather than at the first outage.
     */
    static String notExported(Class<?> type) {
        Module module = type.getModule();
        if (module.isExported(type.getPackageName(), SafeClassLoading.class.getModule())) {
            return null;
        }
        return type.getName() + " is in package " + type.getPackageName() + ", which " + module + " does not export";
    }

    static String describe(ClassLoader loader) {
        if (loader == null) {
            return "the bootstrap class loader";
        }
        return loader.getName() != null ? "class loader '" + loader.getName() + "'" : "class loader " + loader;
    }
}
