package dev.weft.rpc.spi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;

/**
 * Defines the classes of one package itself (child first) from its parent's class files and
 * delegates everything else, so each instance holds distinct {@code Class} objects for that
 * package: an extension point loaded through it is new to every per-class cache.
 */
final class FreshPackageLoader extends ClassLoader {

    private final String prefix;

    FreshPackageLoader(String packageName, ClassLoader parent) {
        super("fresh-" + packageName, parent);
        this.prefix = packageName + ".";
    }

    @Override
    protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
        if (!name.startsWith(prefix)) {
            return super.loadClass(name, resolve);
        }
        synchronized (getClassLoadingLock(name)) {
            Class<?> loaded = findLoadedClass(name);
            if (loaded == null) {
                String resource = name.replace('.', '/') + ".class";
                try (InputStream in = getParent().getResourceAsStream(resource)) {
                    if (in == null) {
                        throw new ClassNotFoundException(name);
                    }
                    byte[] bytes = in.readAllBytes();
                    loaded = defineClass(name, bytes, 0, bytes.length);
                } catch (IOException e) {
                    throw new UncheckedIOException(resource, e);
                }
            }
            if (resolve) {
                resolveClass(loaded);
            }
            return loaded;
        }
    }
}
