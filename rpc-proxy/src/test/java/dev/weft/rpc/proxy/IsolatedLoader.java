package dev.weft.rpc.proxy;

import java.net.URL;
import java.net.URLClassLoader;

/**
 * A throwaway child-first class loader: classes of {@code dev.weft.rpc.proxy.isolated} are
 * loaded by it from the test classes directory, everything else (Weft included) by the
 * application loader. Two instances give two distinct {@code isolated.Greeter} interfaces with
 * the same name.
 */
final class IsolatedLoader extends URLClassLoader {

    static final String PACKAGE = "dev.weft.rpc.proxy.isolated.";
    static final String GREETER = PACKAGE + "Greeter";
    static final String ENGLISH_GREETER = PACKAGE + "EnglishGreeter";

    static {
        registerAsParallelCapable();
    }

    IsolatedLoader() {
        super(new URL[] {IsolatedLoader.class.getProtectionDomain().getCodeSource().getLocation()},
                IsolatedLoader.class.getClassLoader());
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(PACKAGE)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                loaded = findClass(name);
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }
}
