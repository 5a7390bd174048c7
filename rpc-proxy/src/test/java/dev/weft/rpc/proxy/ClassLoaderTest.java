package dev.weft.rpc.proxy;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;

import java.lang.ref.WeakReference;
import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Proxies of interfaces from other class loaders: isolation, collection, one class under concurrency. */
class ClassLoaderTest {

    private static final URL URL = dev.weft.rpc.common.URL.valueOf("weft://127.0.0.1:20880/greeter");

    @SuppressWarnings("unchecked")
    private static <T> Invoker<T> invokerOf(ProxyFactory factory, Object impl, Class<?> type) {
        return factory.getInvoker((T) impl, (Class<T>) type, URL);
    }

    private static Object greet(Object proxy, String name) throws Exception {
        return findGreet(proxy.getClass()).invoke(proxy, name);
    }

    private static Method findGreet(Class<?> proxyClass) throws NoSuchMethodException {
        for (Class<?> type : proxyClass.getInterfaces()) {
            if (type.getName().equals(IsolatedLoader.GREETER)) {
                return type.getMethod("greet", String.class);
            }
        }
        throw new NoSuchMethodException("greet on " + proxyClass);
    }

    @ForEachFactory
    void proxies_ofSameNamedInterfacesInTwoLoaders_stayApart(Factories factories) throws Exception {
        try (IsolatedLoader first = new IsolatedLoader(); IsolatedLoader second = new IsolatedLoader()) {
            Class<?> firstGreeter = first.loadClass(IsolatedLoader.GREETER);
            Class<?> secondGreeter = second.loadClass(IsolatedLoader.GREETER);
            assertThat(firstGreeter).isNotSameAs(secondGreeter);

            Object firstProxy = factories.factory.getProxy(ProxyTargets.of(firstGreeter).answering((i, provider) -> RpcResult.of("first")));
            Object secondProxy = factories.factory.getProxy(ProxyTargets.of(secondGreeter).answering((i, provider) -> RpcResult.of("second")));

            assertThat(firstGreeter.isInstance(firstProxy)).isTrue();
            assertThat(secondGreeter.isInstance(secondProxy)).isTrue();
            assertThat(firstGreeter.isInstance(secondProxy)).isFalse();
            assertThat(firstProxy.getClass()).isNotSameAs(secondProxy.getClass());
            assertThat(firstProxy.getClass().getClassLoader()).isSameAs(first);
            assertThat(secondProxy.getClass().getClassLoader()).isSameAs(second);
            assertThat(greet(firstProxy, "x")).isEqualTo("first");
            assertThat(greet(secondProxy, "x")).isEqualTo("second");
        }
    }

    @ForEachFactory
    void roundTrip_inAnIsolatedLoader_callsTheImplementation(Factories factories) throws Exception {
        try (IsolatedLoader loader = new IsolatedLoader()) {
            Class<?> greeter = loader.loadClass(IsolatedLoader.GREETER);
            Object impl = loader.loadClass(IsolatedLoader.ENGLISH_GREETER).getConstructor().newInstance();

            Object proxy = factories.factory.getProxy(invokerOf(factories.factory, impl, greeter));

            assertThat(greet(proxy, "ann")).isEqualTo("hello ann");
        }
    }

    @ForEachFactory
    void proxyAndInvoker_dropped_letTheClassLoaderBeCollected(Factories factories) throws Exception {
        WeakReference<ClassLoader> loader = useAndDropThrowawayLoader(factories.factory);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
        while (loader.get() != null && System.nanoTime() < deadline) {
            System.gc();
            Thread.sleep(20);
        }

        assertThat(loader.get()).as("throwaway class loader collected").isNull();
    }

    private static WeakReference<ClassLoader> useAndDropThrowawayLoader(ProxyFactory factory) throws Exception {
        IsolatedLoader loader = new IsolatedLoader();
        Class<?> greeter = loader.loadClass(IsolatedLoader.GREETER);
        Object impl = loader.loadClass(IsolatedLoader.ENGLISH_GREETER).getConstructor().newInstance();
        Object roundTrip = factory.getProxy(invokerOf(factory, impl, greeter));
        Object consumerOnly = factory.getProxy(ProxyTargets.of(greeter).answering((i, provider) -> RpcResult.of("hi")));
        assertThat(greet(roundTrip, "ann")).isEqualTo("hello ann");
        assertThat(greet(consumerOnly, "ann")).isEqualTo("hi");
        assertThat(roundTrip.toString()).startsWith(IsolatedLoader.GREETER + " proxy -> ");
        loader.close();
        return new WeakReference<>(loader);
    }

    @ForEachFactory
    void eightThreads_creatingProxiesOfOneInterfaceAtOnce_getOneClass(Factories factories) throws Exception {
        int threads = 8;
        try (IsolatedLoader loader = new IsolatedLoader()) {
            Class<?> greeter = loader.loadClass(IsolatedLoader.GREETER);
            CyclicBarrier start = new CyclicBarrier(threads);
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<Object>> proxies = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    String answer = "answer " + i;
                    proxies.add(pool.submit(() -> {
                        start.await(10, TimeUnit.SECONDS);
                        return factories.factory.getProxy(ProxyTargets.of(greeter).answering((inv, provider) -> RpcResult.of(answer)));
                    }));
                }
                Set<Class<?>> classes = ConcurrentHashMap.newKeySet();
                for (int i = 0; i < threads; i++) {
                    Object proxy = proxies.get(i).get(10, TimeUnit.SECONDS);
                    classes.add(proxy.getClass());
                    assertThat(greet(proxy, "x")).isEqualTo("answer " + i);
                }
                assertThat(classes).hasSize(1);
            } finally {
                pool.shutdownNow();
                assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            }
        }
    }

    @ForEachFactory
    void eightThreads_roundTripsOfSameNamedInterfacesInTwelveLoaders_neverMixLoaders(Factories factories) throws Exception {
        int threads = 8;
        int loaderCount = 12;
        List<IsolatedLoader> loaders = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Class<?>> greeters = new ArrayList<>();
            List<Object> impls = new ArrayList<>();
            for (int i = 0; i < loaderCount; i++) {
                IsolatedLoader loader = new IsolatedLoader();
                loaders.add(loader);
                greeters.add(loader.loadClass(IsolatedLoader.GREETER));
                impls.add(loader.loadClass(IsolatedLoader.ENGLISH_GREETER).getConstructor().newInstance());
            }
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<List<Object>>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int offset = t;
                results.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    List<Object> proxies = new ArrayList<>();
                    for (int k = 0; k < loaderCount; k++) {
                        int i = (k + offset) % loaderCount; // each thread starts at another loader
                        proxies.add(factories.factory.getProxy(invokerOf(factories.factory, impls.get(i), greeters.get(i))));
                    }
                    return proxies;
                }));
            }
            for (int t = 0; t < threads; t++) {
                List<Object> proxies = results.get(t).get(30, TimeUnit.SECONDS);
                for (int k = 0; k < loaderCount; k++) {
                    int i = (k + t) % loaderCount;
                    Object proxy = proxies.get(k);
                    assertThat(greeters.get(i).isInstance(proxy)).as("thread %s, loader %s", t, i).isTrue();
                    assertThat(proxy.getClass().getClassLoader()).isSameAs(loaders.get(i));
                    assertThat(greet(proxy, "ann")).isEqualTo("hello ann");
                }
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            for (IsolatedLoader loader : loaders) {
                loader.close();
            }
        }
    }

    @org.junit.jupiter.api.Test
    void javassistProxy_isDefinedNextToTheInterface() throws Exception {
        try (IsolatedLoader loader = new IsolatedLoader()) {
            Class<?> greeter = loader.loadClass(IsolatedLoader.GREETER);

            Object proxy = new JavassistProxyFactory().getProxy(ProxyTargets.of(greeter).answering((i, provider) -> RpcResult.of("x")));

            assertThat(proxy.getClass().getName()).startsWith(IsolatedLoader.GREETER + "$$WeftProxy$");
            assertThat(proxy.getClass().getPackageName()).isEqualTo(greeter.getPackageName());
            assertThat(proxy.getClass().getClassLoader()).isSameAs(loader);
        }
    }
}
