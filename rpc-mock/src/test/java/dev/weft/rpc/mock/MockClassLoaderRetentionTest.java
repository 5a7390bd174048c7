package dev.weft.rpc.mock;

import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.lang.ref.Reference;
import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer's class loader must be collectable once its mock invokers are gone, although the
 * mock support (one per cluster wrapper, i.e. per director) lives on: nothing that converted a
 * value for, or instantiated a mock class of, a throwaway loader may keep it reachable.
 */
class MockClassLoaderRetentionTest {

    private static final String PACKAGE = "dev.weft.rpc.mock.fixtures.throwaway.";
    private static final int LOADERS = 40;

    @Test
    void throwawayClassLoaders_areCollected_afterTheirMockInvokersAreGone() throws Throwable {
        MockSupport support = new MockSupport(new ReflectiveInvokers());
        List<WeakReference<ClassLoader>> loaders = new ArrayList<>();
        for (int i = 0; i < LOADERS; i++) {
            loaders.add(new WeakReference<>(useOnce(support, i)));
        }

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (alive(loaders) > 0 && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }

        assertThat(alive(loaders)).as("throwaway class loaders still reachable").isZero();
        Reference.reachabilityFence(support);
    }

    /** Loads the service in a new loader, mocks three methods (JSON value, bean value, mock class), calls each once. */
    private static ClassLoader useOnce(MockSupport support, int i) throws Throwable {
        Throwaway loader = new Throwaway(i);
        Class<?> catalog = loader.loadClass(PACKAGE + "Catalog");
        assertThat(catalog.getClassLoader()).isSameAs(loader);
        URL url = URL.valueOf("consumer://10.0.0.1/" + catalog.getName())
                .addParameter("items.mock", "force:return [{\"name\":\"a\"},{\"name\":\"b\"}]")
                .addParameter("item.mock", "force:return {\"name\":\"single\"}")
                .addParameter("cheapest.mock", "force");
        MockInvoker<?> mock = MockInvoker.create(catalog, url, support);
        Object items = mock.invoke(new RpcInvocation(catalog.getMethod("items"), new Object[0])).recreate();
        Object item = mock.invoke(new RpcInvocation(catalog.getMethod("item"), new Object[0])).recreate();
        Object cheapest = mock.invoke(new RpcInvocation(catalog.getMethod("cheapest"), new Object[0])).recreate();
        assertThat((List<?>) items).hasSize(2).allSatisfy(e -> assertThat(e.getClass().getClassLoader()).isSameAs(loader));
        assertThat(item.getClass().getClassLoader()).isSameAs(loader);
        assertThat(cheapest.getClass().getName()).isEqualTo(PACKAGE + "Item");
        assertThat(mock.mockInstances()).isEqualTo(1);
        return loader;
    }

    private static long alive(List<WeakReference<ClassLoader>> loaders) {
        return loaders.stream().filter(ref -> ref.get() != null).count();
    }

    /** Defines the throwaway fixture classes itself; everything else comes from the test class loader. */
    private static final class Throwaway extends ClassLoader {
        Throwaway(int i) {
            super("throwaway-" + i, MockClassLoaderRetentionTest.class.getClassLoader());
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (!name.startsWith(PACKAGE)) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> loaded = findLoadedClass(name);
                if (loaded == null) {
                    byte[] bytes = bytes(name);
                    loaded = defineClass(name, bytes, 0, bytes.length);
                }
                return loaded;
            }
        }

        private byte[] bytes(String name) throws ClassNotFoundException {
            try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                if (in == null) {
                    throw new ClassNotFoundException(name);
                }
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
