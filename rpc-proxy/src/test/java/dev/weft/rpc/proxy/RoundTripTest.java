package dev.weft.rpc.proxy;

import dev.weft.rpc.common.URL;

import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code getProxy(getInvoker(impl))} behaves exactly like {@code impl}, for both factories and across them. */
class RoundTripTest {

    private static final URL URL = dev.weft.rpc.common.URL.valueOf("weft://127.0.0.1:20880/sample");

    private static SampleService roundTrip(ProxyFactory proxies, ProxyFactory invokers, SampleService impl) {
        return proxies.getProxy(invokers.getInvoker(impl, SampleService.class, URL));
    }

    @ForEachFactory
    void roundTrip_behavesLikeTheImplementation(Factories factories) throws Exception {
        SampleServiceImpl impl = new SampleServiceImpl();
        SampleService proxy = roundTrip(factories.factory, factories.factory, impl);

        assertSameBehaviour(proxy, new SampleServiceImpl());
        proxy.record("a");
        proxy.record("b");
        assertThat(impl.recorded()).containsExactly("a", "b");
    }

    @ForEachFactory
    void roundTrip_acrossFactories_behavesLikeTheImplementation(Factories factories) throws Exception {
        ProxyFactory other = factories == Factories.JDK ? Factories.JAVASSIST.factory : Factories.JDK.factory;

        assertSameBehaviour(roundTrip(factories.factory, other, new SampleServiceImpl()), new SampleServiceImpl());
        assertSameBehaviour(roundTrip(other, factories.factory, new SampleServiceImpl()), new SampleServiceImpl());
    }

    @ForEachFactory
    void roundTrip_rethrowsTheImplementationsExceptions(Factories factories) {
        SampleService proxy = roundTrip(factories.factory, factories.factory, new SampleServiceImpl());

        assertThatThrownBy(() -> proxy.load("missing")).isExactlyInstanceOf(CheckedFailure.class).hasMessage("no missing");
        assertThatThrownBy(() -> proxy.load("io")).isExactlyInstanceOf(IOException.class).hasMessage("disk");
        assertThatThrownBy(() -> proxy.risky("state")).isExactlyInstanceOf(IllegalStateException.class).hasMessage("bad state");
        assertThatThrownBy(() -> proxy.risky("error")).isExactlyInstanceOf(AssertionError.class).hasMessage("broken");
        assertThatThrownBy(() -> proxy.risky("checked"))
                .isExactlyInstanceOf(UndeclaredThrowableException.class)
                .hasCauseExactlyInstanceOf(Exception.class)
                .hasRootCauseMessage("undeclared");
    }

    @ForEachFactory
    void roundTrip_sharedByEightThreads_losesAndMixesNothing(Factories factories) throws Exception {
        int threads = 8;
        int callsPerThread = 5_000;
        SampleServiceImpl impl = new SampleServiceImpl();
        SampleService proxy = roundTrip(factories.factory, factories.factory, impl);
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CyclicBarrier start = new CyclicBarrier(threads);
            List<Future<Integer>> mismatches = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                mismatches.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    int wrong = 0;
                    for (int i = 0; i < callsPerThread; i++) {
                        if (proxy.add(thread * 1_000_000, i) != thread * 1_000_000 + i
                                || !proxy.describe("t" + thread).equals("String t" + thread)) {
                            wrong++;
                        }
                        if (i % 100 == 0) {
                            proxy.record(thread + ":" + i);
                        }
                    }
                    return wrong;
                }));
            }
            for (Future<Integer> result : mismatches) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isZero();
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(impl.recorded()).hasSize(threads * callsPerThread / 100).doesNotHaveDuplicates();
    }

    @ForEachFactory
    void roundTrip_genericInterfaceHierarchy_callsThroughEitherType(Factories factories) {
        NameRepository impl = new NameRepository() {
            @Override
            public String find(String key) {
                return "found " + key;
            }
        };
        NameRepository proxy = factories.factory.getProxy(
                factories.factory.getInvoker(impl, NameRepository.class, URL));
        Repository<String> asGeneric = proxy;

        assertThat(proxy.find("a")).isEqualTo("found a");
        assertThat(asGeneric.find("b")).isEqualTo("found b");
        assertThat(proxy.describe()).isEqualTo("repository");
    }

    interface Repository<T> {
        T find(T key);

        default String describe() {
            return "repository";
        }
    }

    interface NameRepository extends Repository<String> {
        @Override
        String find(String key);
    }

    private static void assertSameBehaviour(SampleService proxy, SampleService impl) throws Exception {
        assertThat(proxy.add(2, 3)).isEqualTo(impl.add(2, 3));
        assertThat(proxy.addLong(1L << 40, 1)).isEqualTo(impl.addLong(1L << 40, 1));
        assertThat(proxy.half(-3.0)).isEqualTo(impl.half(-3.0));
        assertThat(proxy.scale(2f, 0.25f)).isEqualTo(impl.scale(2f, 0.25f));
        assertThat(proxy.negate(false)).isEqualTo(impl.negate(false));
        assertThat(proxy.nextChar('q')).isEqualTo(impl.nextChar('q'));
        assertThat(proxy.nextByte(Byte.MAX_VALUE)).isEqualTo(impl.nextByte(Byte.MAX_VALUE));
        assertThat(proxy.nextShort((short) 9)).isEqualTo(impl.nextShort((short) 9));
        assertThat(proxy.reverse(new int[] {1, 2, 3})).containsExactly(impl.reverse(new int[] {1, 2, 3}));
        assertThat(proxy.grid(2, 3)).isDeepEqualTo(impl.grid(2, 3));
        assertThat(proxy.names(Map.of("b", 1, "a", 2))).isEqualTo(impl.names(Map.of("b", 1, "a", 2)));
        assertThat(proxy.max("pear", "apple")).isEqualTo(impl.max("pear", "apple"));
        assertThat(proxy.max(3, 9)).isEqualTo(impl.max(3, 9));
        assertThat(proxy.sum()).isEqualTo(impl.sum());
        assertThat(proxy.sum(1, 2, 3, 4)).isEqualTo(impl.sum(1, 2, 3, 4));
        assertThat(proxy.describe(1)).isEqualTo(impl.describe(1));
        assertThat(proxy.describe(Integer.valueOf(1))).isEqualTo(impl.describe(Integer.valueOf(1)));
        assertThat(proxy.describe("1")).isEqualTo(impl.describe("1"));
        assertThat(proxy.describe((Object) "1")).isEqualTo(impl.describe((Object) "1"));
        assertThat(proxy.describe(new long[3])).isEqualTo(impl.describe(new long[3]));
        assertThat(proxy.greet("ann")).isEqualTo(impl.greet("ann"));
        assertThat(proxy.mixed(Long.MIN_VALUE, -7, 0.25, null, true, 'z', (byte) -1, Short.MAX_VALUE, 1.5f))
                .isEqualTo(impl.mixed(Long.MIN_VALUE, -7, 0.25, null, true, 'z', (byte) -1, Short.MAX_VALUE, 1.5f))
                .isEqualTo("-9223372036854775808|-7|0.25|null|true|z|-1|32767|1.5");
        assertThat(proxy.load("k")).isEqualTo(impl.load("k"));
        assertThat(proxy.risky("ok")).isEqualTo(impl.risky("ok"));
        assertThat(proxy.recorded()).isEqualTo(List.of());
    }
}
