package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Exporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Every shape the proxy supports, over a real socket on 127.0.0.1. */
class RoundTripTest {

    private Loopback loopback;
    private ShapesImpl impl;
    private Shapes shapes;
    private Invoker<Shapes> invoker;

    @BeforeEach
    void setUp() {
        loopback = new Loopback();
        impl = new ShapesImpl();
        Exporter<Shapes> exporter = loopback.export(Shapes.class, impl, "");
        // loose: the first value other than a string builds Jackson's databind inside that call,
        // which takes seconds on a busy 2-core machine
        invoker = loopback.refer(Shapes.class, exporter, "timeout=30000");
        shapes = Loopback.proxy(Shapes.class, invoker);
    }

    @AfterEach
    void tearDown() {
        loopback.close();
    }

    @AfterAll
    static void noLeaks() {
        LeakCounter.assertNoLeaks();
    }

    @Test
    void primitives_crossBothWays() {
        assertThat(shapes.add(40, 2)).isEqualTo(42);
        assertThat(shapes.twice(Long.MAX_VALUE / 2)).isEqualTo(Long.MAX_VALUE - 1);
        assertThat(shapes.not(false)).isTrue();
        assertThat(shapes.half(3.0)).isEqualTo(1.5);
        assertThat(shapes.next('a')).isEqualTo('b');
        assertThat(shapes.reverse(new int[] {1, 2, 3})).containsExactly(3, 2, 1);
    }

    @Test
    void strings_includingNullAndNonAscii() {
        assertThat(shapes.echo("héllo İstanbul ✓")).isEqualTo("héllo İstanbul ✓");
        assertThat(shapes.echo("")).isEmpty();
        assertThat(shapes.echo(null)).isNull();
    }

    @Test
    void genericsCollectionsAndRecords_keepTheirDeclaredTypes() {
        List<Shapes.Point> points = shapes.points(List.of(new Shapes.Point(1, 2), new Shapes.Point(3, 4)));
        assertThat(points).containsExactly(new Shapes.Point(3, 4), new Shapes.Point(1, 2));

        Map<String, List<Integer>> index = new LinkedHashMap<>();
        index.put("a", List.of(1, 2));
        assertThat(shapes.index(index)).containsExactly(Map.entry("a!", List.of(1, 2)));

        assertThat(shapes.set(new LinkedHashSet<>(List.of("x")))).containsExactlyInAnyOrder("x", "extra");
        assertThat(shapes.move(new Shapes.Point(1, 1), 5)).isEqualTo(new Shapes.Point(6, 1));

        Shapes.Box<Shapes.Point> box = shapes.box(new Shapes.Box<>(new Shapes.Point(1, 0), List.of(new Shapes.Point(2, 0))));
        assertThat(box.value()).isEqualTo(new Shapes.Point(2, 0));
        assertThat(box.more()).containsExactly(new Shapes.Point(1, 0));
    }

    @Test
    void voidMethod_runsOnceAndReturns() {
        shapes.fire("x");
        assertThat(impl.fired).hasValue(1);
    }

    @Test
    void declaredObject_arrivesAsPlainJsonValues() {
        assertThat(shapes.any(Map.of("k", 1))).isEqualTo("java.util.LinkedHashMap");
        assertThat(shapes.any(null)).isNull();
    }

    @Test
    void declaredCheckedException_isRecreatedWithMessageAndRemoteStack() {
        assertThatThrownBy(() -> shapes.fail("declared"))
                .isExactlyInstanceOf(Shapes.PointException.class)
                .hasMessage("bad point")
                .satisfies(e -> assertThat(e.getStackTrace()[0].getClassName()).isEqualTo(ShapesImpl.class.getName()));
    }

    @Test
    void subclassOfADeclaredException_arrivesAsTheDeclaredClass_namingTheRemoteOne() {
        assertThatThrownBy(() -> shapes.fail("declared-subclass"))
                .isExactlyInstanceOf(Shapes.PointException.class)
                .hasMessage("bad point, provider detail (remote " + ShapesImpl.ProviderPointException.class.getName() + ")")
                .satisfies(e -> assertThat(e.getStackTrace()[0].getClassName()).isEqualTo(ShapesImpl.class.getName()));
    }

    @Test
    void allowListedJdkException_isRecreated() {
        assertThatThrownBy(() -> shapes.fail("iae"))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("bad argument");
        assertThatThrownBy(() -> shapes.fail("other"))
                .isExactlyInstanceOf(IllegalStateException.class)
                .hasMessage("unknown kind other");
    }

    @Test
    void undeclaredException_becomesBizRpcExceptionNamingTheRemoteClass() {
        assertThatThrownBy(() -> shapes.fail("custom"))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue())
                .hasMessageContaining(ShapesImpl.CustomProviderException.class.getName())
                .hasMessageContaining("provider only");
    }

    @Test
    void sequentialAndConcurrentCalls_allAnsweredCorrectly() throws Exception {
        Thread[] threads = new Thread[8];
        java.util.concurrent.atomic.AtomicInteger wrong = new java.util.concurrent.atomic.AtomicInteger();
        for (int t = 0; t < threads.length; t++) {
            int base = t * 1000;
            threads[t] = new Thread(() -> {
                for (int i = 0; i < 200; i++) {
                    if (shapes.add(base, i) != base + i) {
                        wrong.incrementAndGet();
                    }
                }
            });
            threads[t].start();
        }
        for (Thread thread : threads) {
            thread.join(30_000);
        }
        assertThat(wrong).hasValue(0);
        assertThat(impl.calls).hasValue(1600);
    }
}
