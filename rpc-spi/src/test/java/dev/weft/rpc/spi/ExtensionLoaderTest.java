package dev.weft.rpc.spi;

import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.fixtures.Greeter;
import dev.weft.rpc.spi.fixtures.HelloGreeter;
import dev.weft.rpc.spi.fixtures.HolaGreeter;
import dev.weft.rpc.spi.fixtures.PlainGreeter;
import dev.weft.rpc.spi.fixtures.Transport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ExtensionLoaderTest {

    private final ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader());
    private final ExtensionLoader<Greeter> loader = director.getExtensionLoader(Greeter.class);

    @AfterEach
    void close() {
        director.close();
    }

    @Test
    void discovery_readsNamesAliasesAndDerivedNames() {
        assertThat(loader.getSupportedExtensions()).containsExactly("hello", "hola", "ola", "plain");
        assertThat(loader.getExtension("hola", false)).isSameAs(loader.getExtension("ola", false));
        assertThat(loader.getExtension("plain", false)).isInstanceOf(PlainGreeter.class);
        assertThat(loader.getExtensionName(HolaGreeter.class)).isEqualTo("hola");
        assertThat(loader.getExtensionName(String.class)).isNull();
        assertThat(loader.hasExtension("hello")).isTrue();
        assertThat(loader.hasExtension("missing")).isFalse();
    }

    @Test
    void getExtension_returnsOneInstancePerName() {
        assertThat(loader.getExtension("hello")).isSameAs(loader.getExtension("hello"));
        assertThat(loader.getExtension("hello", false)).isSameAs(loader.getExtension("hello", false));
    }

    @Test
    void wrappers_applyInOrderLowestOutermost_andHonourMatches() {
        URL url = URL.valueOf("test://h");
        assertThat(loader.getExtension("hello").greet(url, "bob")).isEqualTo("[(hello bob)]");
        assertThat(loader.getExtension("hola").greet(url, "bob")).isEqualTo("(hola bob)");
        assertThat(loader.getExtension("plain").greet(url, "bob")).isEqualTo("hola bob");
        assertThat(loader.getExtension("hello", false).greet(url, "bob")).isEqualTo("hello bob");
        assertThat(loader.getExtension("hello", false)).isInstanceOf(HelloGreeter.class);
    }

    @Test
    void unknownName_namesTypeAvailableAndSuggestion() {
        assertThatThrownBy(() -> loader.getExtension("helo"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("No extension 'helo' for dev.weft.rpc.spi.fixtures.Greeter "
                        + "(available: [hello, hola, ola, plain]; did you mean 'hello'?)");
    }

    @Test
    void failedLine_isReportedWithFileAndLine_whenItsNameIsAskedFor() {
        assertThatThrownBy(() -> loader.getExtension("missing"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No extension 'missing'")
                .hasMessageContaining("META-INF/rpc/dev.weft.rpc.spi.fixtures.Greeter:8")
                .hasMessageContaining("class: dev.weft.rpc.spi.fixtures.DoesNotExist (expected: a class on the class path; not found)");
        assertThatThrownBy(() -> loader.getExtension("wrongtype"))
                .hasMessageContaining("Greeter:9")
                .hasMessageContaining("expected: an implementation of dev.weft.rpc.spi.fixtures.Greeter");
    }

    @Test
    void conflictingName_keepsFirstBinding_andIsReportedWithBothSources() {
        assertThat(loader.getExtension("hello", false)).isInstanceOf(HelloGreeter.class);
        assertThat(loader.getProblems()).anySatisfy(problem -> assertThat(problem)
                .contains("'hello'").contains("Greeter:10")
                .contains("conflicts with dev.weft.rpc.spi.fixtures.HelloGreeter bound at")
                .contains("Greeter:2"));
    }

    @Test
    void validate_reportsEveryProblemAtOnce() {
        assertThatThrownBy(loader::validate)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("3 problem(s) with extension point dev.weft.rpc.spi.fixtures.Greeter:")
                .hasMessageContaining("'missing'")
                .hasMessageContaining("'wrongtype'")
                .hasMessageContaining("'hello'");
    }

    @Test
    void nonSpiType_isRejected() {
        assertThatThrownBy(() -> director.getExtensionLoader(Runnable.class))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("Extension point: java.lang.Runnable (expected: an interface annotated @dev.weft.rpc.spi.SPI)");
    }

    @Test
    void defaultExtension_comesFromSpiValue() {
        assertThat(loader.getDefaultExtensionName()).isEqualTo("hello");
        assertThat(loader.getDefaultExtension()).isSameAs(loader.getExtension("hello"));
    }

    @Test
    void nullOrEmptyName_isAClearError() {
        assertThatThrownBy(() -> loader.getExtension(null)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Extension name: null");
        assertThatThrownBy(() -> loader.getExtension("")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Extension name: ''");
    }

    @Test
    void singleton_32ThreadsAtOnce_getOneInstanceAndOneConstructorCall() throws Exception {
        HelloGreeter.CONSTRUCTED.set(0);
        ExecutorService pool = Executors.newFixedThreadPool(32);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<Greeter>> futures = new ArrayList<>();
            for (int i = 0; i < 32; i++) {
                Callable<Greeter> task = () -> {
                    start.await();
                    return loader.getExtension("hello");
                };
                futures.add(pool.submit(task));
            }
            start.countDown();
            Set<Greeter> distinct = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
            for (Future<Greeter> future : futures) {
                distinct.add(future.get(10, TimeUnit.SECONDS));
            }
            assertThat(distinct).hasSize(1);
            assertThat(HelloGreeter.CONSTRUCTED.get()).isEqualTo(1);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void adaptive_picksByKeysInOrder_thenDefault() {
        Greeter adaptive = loader.getAdaptiveExtension();
        assertThat(adaptive.greet(URL.valueOf("t://h?greeter=hola"), "x")).isEqualTo("(hola x)");
        assertThat(adaptive.greet(URL.valueOf("t://h?fallback.greeter=plain"), "x")).isEqualTo("hola x");
        assertThat(adaptive.greet(URL.valueOf("t://h?greeter=hola&fallback.greeter=plain"), "x")).isEqualTo("(hola x)");
        assertThat(adaptive.greet(URL.valueOf("t://h?greeter="), "x")).isEqualTo("[(hello x)]");
        assertThat(adaptive).isSameAs(loader.getAdaptiveExtension());
    }

    @Test
    void adaptive_keyProtocol_readsTheUrlScheme_notAParameter() {
        Transport adaptive = director.getExtensionLoader(Transport.class).getAdaptiveExtension();
        assertThat(adaptive.open(URL.valueOf("udp://127.0.0.1:9000"))).isEqualTo("udp:127.0.0.1:9000");
        assertThat(adaptive.open(URL.valueOf("tcp://127.0.0.1:9000?protocol=udp"))).isEqualTo("tcp:127.0.0.1:9000");
        assertThatThrownBy(() -> adaptive.open(URL.valueOf("sctp://127.0.0.1:9000")))
                .hasMessageContaining("sctp");
    }

    @Test
    void adaptive_findsUrlThroughGetUrl_andPassesPrimitives() {
        Greeter adaptive = loader.getAdaptiveExtension();
        Greeter.Holder hola = () -> URL.valueOf("t://h?greeter=hola");
        Greeter.Holder byDerivedKey = () -> URL.valueOf("t://h?greeter=hello");
        assertThat(adaptive.count(hola, 3, 2.5)).isEqualTo(1007L);
        assertThat(adaptive.count(byDerivedKey, 3, 2.5)).isEqualTo(7L);
    }

    @Test
    void adaptive_withoutKeys_usesInterfaceNameSplitAtCaseChanges() {
        Greeter adaptive = loader.getAdaptiveExtension();
        assertThat(adaptive.count(() -> URL.valueOf("t://h?greeter=hola"), 1, 1)).isEqualTo(1001L);
        assertThat(loader.describeAdaptive()).contains("count(Holder arg0, int arg1, double arg2) -> url = arg0.getUrl()")
                .contains("[greeter]");
    }

    @Test
    void adaptive_usesMethodLevelKey_whenAnInvocationIsPassed() {
        Greeter adaptive = loader.getAdaptiveExtension();
        URL url = URL.valueOf("t://h?greeter=hello&sayHi.greeter=hola");
        assertThat(adaptive.perMethod(url, new RpcInvocation("sayHi", null, null))).isEqualTo("hola:sayHi");
        assertThat(adaptive.perMethod(url, new RpcInvocation("other", null, null))).isEqualTo("hello:other");
    }

    @Test
    void adaptive_nullUrl_nullHolder_andNonAdaptiveMethods_areClearErrors() {
        Greeter adaptive = loader.getAdaptiveExtension();
        assertThatThrownBy(() -> adaptive.greet(null, "x")).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("URL: null (expected: a URL from argument 0 of dev.weft.rpc.spi.fixtures.Greeter.greet");
        assertThatThrownBy(() -> adaptive.count(null, 1, 1)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("argument 0 of dev.weft.rpc.spi.fixtures.Greeter.count: null");
        assertThatThrownBy(adaptive::notAdaptive).isInstanceOf(UnsupportedOperationException.class)
                .hasMessageContaining("dev.weft.rpc.spi.fixtures.Greeter.notAdaptive");
        assertThat(adaptive.kind()).isEqualTo("greeter");
    }

    @Test
    void adaptive_unknownNameFromUrl_getsTheLoaderError() {
        Greeter adaptive = loader.getAdaptiveExtension();
        assertThatThrownBy(() -> adaptive.greet(URL.valueOf("t://h?greeter=holla"), "x"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("No extension 'holla'").hasMessageContaining("did you mean 'hola'?");
    }

    @Test
    void closedDirector_refusesNewWork() {
        ExtensionDirector other = new ExtensionDirector(getClass().getClassLoader());
        ExtensionLoader<Greeter> otherLoader = other.getExtensionLoader(Greeter.class);
        other.close();
        assertThat(other.isClosed()).isTrue();
        assertThatThrownBy(() -> otherLoader.getExtension("hola")).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("ExtensionDirector: closed");
        assertThatThrownBy(() -> other.getExtensionLoader(Greeter.class)).isInstanceOf(IllegalStateException.class);
    }
}
