package dev.weft.rpc.spi;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.fixtures.ClosingPoint;
import dev.weft.rpc.spi.fixtures.Gadget;
import dev.weft.rpc.spi.fixtures.NoAdaptiveMethods;
import dev.weft.rpc.spi.fixtures.Plugin;
import dev.weft.rpc.spi.fixtures.Transport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Descriptor errors, wrappers that are injected, adaptive description and racing first calls. */
class ExtensionLoaderEdgeCasesTest {

    private final ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader());
    private final ExtensionLoader<Gadget> gadgets = director.getExtensionLoader(Gadget.class);

    @BeforeEach
    void clear() {
        Gadget.CLOSED.clear();
    }

    @AfterEach
    void close() {
        director.close();
    }

    @Test
    void problems_nameEachBadDescriptorLineByKind() {
        List<String> problems = gadgets.getProblems();

        assertThat(problems).anySatisfy(p -> assertThat(p)
                .contains(Gadget.AbstractGadget.class.getName()).contains("public concrete class"));
        assertThat(problems).anySatisfy(p -> assertThat(p)
                .contains(Gadget.NeedsArgument.class.getName()).contains("public no-arg constructor")
                .contains("taking Gadget for a wrapper"));
        assertThat(problems).anySatisfy(p -> assertThat(p)
                .contains(Gadget.AdaptiveNeedsArgument.class.getName()).contains("no-arg constructor on an @Adaptive class"));
        assertThat(problems).anySatisfy(p -> assertThat(p).contains("also..not.a.class").contains("binary class name"));
        assertThatThrownBy(gadgets::validate).hasMessageContaining("problem(s) with extension point " + Gadget.class.getName());
    }

    @Test
    void secondAdaptiveClass_isOneConflict_theFirstIsKept_andARepeatedLineIsNone() {
        List<String> conflicts = gadgets.getProblems().stream().filter(p -> p.contains("conflicts with")).toList();

        assertThat(conflicts).hasSize(1);
        assertThat(conflicts.get(0)).contains(Gadget.OtherHandAdaptive.class.getName())
                .contains(Gadget.HandAdaptive.class.getName());
        assertThat(gadgets.getAdaptiveExtension()).isInstanceOf(Gadget.HandAdaptive.class);
        assertThat(gadgets.describeAdaptive())
                .isEqualTo("adaptive " + Gadget.class.getName() + " = hand-written " + Gadget.HandAdaptive.class.getName());
    }

    @Test
    void unknownName_withSeveralFailedLines_listsEachOnceSeparated() {
        assertThatThrownBy(() -> gadgets.getExtension("twice"))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("No extension 'twice' for " + Gadget.class.getName())
                .hasMessageContaining("its descriptor line failed: ")
                .hasMessageNotContaining("failed: ; ")
                .satisfies(e -> {
                    String message = e.getMessage();
                    int a = message.indexOf("DoesNotExistA");
                    int b = message.indexOf("DoesNotExistB");
                    assertThat(a).isPositive().isLessThan(b);
                    assertThat(message.substring(a, b)).contains("; ");
                });
    }

    @Test
    void unknownName_whoseClassNameWasInvalid_reportsThatLine() {
        assertThatThrownBy(() -> gadgets.getExtension("badclass"))
                .hasMessageContaining("its descriptor line failed")
                .hasMessageContaining("not..a.class");
    }

    @Test
    void wrapper_isToldItsDirector_injected_andClosedWithIt() {
        Gadget wrapped = gadgets.getExtension("plain");

        assertThat(wrapped).isInstanceOf(Gadget.Framing.class);
        Gadget.Framing framing = (Gadget.Framing) wrapped;
        assertThat(framing.director).isSameAs(director);
        assertThat(framing.transport).isNotNull();
        assertThat(framing.transport.open(URL.valueOf("udp://h:1"))).isEqualTo("udp:h:1");
        assertThat(framing.name(URL.valueOf("t://h"))).isEqualTo("[plain]");

        director.close();

        assertThat(Gadget.CLOSED).containsExactly("framing(plain)", "plain");
    }

    @Test
    void injection_skipsAMethodNamedJustSet() {
        Gadget.Plain plain = (Gadget.Plain) gadgets.getExtension("plain", false);

        assertThat(plain.calls).containsExactly("setTransport udp:h:1");
    }

    @Test
    void generatedAdaptive_isClosedWithTheDirector_throughTheInterfaceDefault() {
        ClosingPoint.CLOSED.clear();
        ClosingPoint adaptive = director.getExtensionLoader(ClosingPoint.class).getAdaptiveExtension();

        director.close();

        assertThat(ClosingPoint.CLOSED).containsExactly(adaptive.toString());
        assertThat(adaptive.toString()).startsWith("adaptive " + ClosingPoint.class.getName() + " (default: none)");
    }

    @Test
    void closedDirector_refusesEvenAnAdaptiveExtensionItAlreadyMade() {
        ExtensionLoader<Transport> transports = director.getExtensionLoader(Transport.class);
        Transport adaptive = transports.getAdaptiveExtension();
        assertThat(adaptive.open(URL.valueOf("udp://h:2"))).isEqualTo("udp:h:2");

        director.close();

        assertThatThrownBy(transports::getAdaptiveExtension)
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("closed");
    }

    @Test
    void adaptiveExtensionHeldAcrossClose_refusesEveryName_evenTheOneItPickedLast() {
        Transport adaptive = director.getExtensionLoader(Transport.class).getAdaptiveExtension();
        assertThat(adaptive.open(URL.valueOf("udp://h:2"))).isEqualTo("udp:h:2");

        director.close();

        for (String url : List.of("udp://h:2", "tcp://h:1")) {
            assertThatThrownBy(() -> adaptive.open(URL.valueOf(url)))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("ExtensionDirector: closed");
        }
    }

    @Test
    void extensionPointWithoutAdaptiveMethods_hasNoProblem() {
        ExtensionLoader<NoAdaptiveMethods> none = director.getExtensionLoader(NoAdaptiveMethods.class);

        assertThat(none.getProblems()).isEmpty();
    }

    @Test
    void activate_withoutUrl_leavesOutExtensionsThatNeedAKey() {
        ExtensionLoader<Plugin> plugins = director.getExtensionLoader(Plugin.class);

        assertThat(plugins.getActivateExtensions(null, null, null)).extracting(Plugin::id)
                .contains("always")
                .doesNotContain("cache");
    }

    @Test
    void loader_reportsItsTypeAndNamesItInToString() {
        assertThat(gadgets.getType()).isSameAs(Gadget.class);
        assertThat(gadgets).hasToString("ExtensionLoader[" + Gadget.class.getName() + "]");
    }

    @Test
    void firstCalls_racingOnManyThreads_allGetTheOneInstance() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            for (int round = 0; round < 30; round++) {
                try (ExtensionDirector fresh = new ExtensionDirector(getClass().getClassLoader())) {
                    ExtensionLoader<Transport> transports = fresh.getExtensionLoader(Transport.class);
                    CountDownLatch start = new CountDownLatch(1);
                    List<Callable<List<Object>>> calls = new ArrayList<>();
                    for (int t = 0; t < 8; t++) {
                        calls.add(() -> {
                            start.await();
                            return List.of(transports.getAdaptiveExtension(), transports.getExtension("udp", false));
                        });
                    }
                    List<Future<List<Object>>> futures = new ArrayList<>();
                    for (Callable<List<Object>> call : calls) {
                        futures.add(pool.submit(call));
                    }
                    start.countDown();
                    List<Object> first = futures.get(0).get(30, TimeUnit.SECONDS);
                    assertThat(first).doesNotContainNull();
                    for (Future<List<Object>> future : futures) {
                        List<Object> got = future.get(30, TimeUnit.SECONDS);
                        assertThat(got.get(0)).isSameAs(first.get(0));
                        assertThat(got.get(1)).isSameAs(first.get(1));
                    }
                }
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }
}
