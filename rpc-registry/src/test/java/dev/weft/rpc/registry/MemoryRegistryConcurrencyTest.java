package dev.weft.rpc.registry;

import com.google.common.collect.Sets;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/** The memory registry's promise to listeners, under many writing threads and from inside a listener: one call at a time, every change in order. */
class MemoryRegistryConcurrencyTest {

    private static final String SERVICE = "com.example.DemoService";
    private static final URL SUBSCRIBER = URL.valueOf("consumer://10.0.0.9/" + SERVICE);

    @Test
    void eightWritersOnOwnHandles_eachListenerSeesEveryChangeOnce_inOneOrder_neverTwoAtATime() throws Exception {
        MemoryRegistry.Store store = new MemoryRegistry.Store();
        MemoryRegistry reader = new MemoryRegistry(URL.valueOf("memory://a"), store);
        List<Recorder> recorders = List.of(new Recorder(), new Recorder());
        recorders.forEach(r -> reader.subscribe(SUBSCRIBER, r));
        int writers = 8;
        int cycles = 200;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        CountDownLatch start = new CountDownLatch(1);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                MemoryRegistry handle = new MemoryRegistry(URL.valueOf("memory://a"), store);
                int port = 20000 + w;
                done.add(pool.submit(() -> {
                    start.await();
                    URL provider = URL.valueOf("weft://10.0.0.1:" + port + "/" + SERVICE);
                    for (int i = 0; i < cycles; i++) {
                        handle.register(provider);
                        handle.unregister(provider);
                    }
                    handle.register(provider);
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : done) {
                future.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
        List<URL> registered = reader.lookup(SUBSCRIBER);
        assertThat(registered).hasSize(writers);
        for (Recorder recorder : recorders) {
            assertThat(recorder.overlaps).hasValue(0);
            assertThat(recorder.lists).hasSize(1 + writers * (2 * cycles + 1));
            assertThat(new HashSet<>(recorder.lists.get(recorder.lists.size() - 1))).isEqualTo(new HashSet<>(registered));
            for (int i = 1; i < recorder.lists.size(); i++) {
                Set<URL> before = providers(recorder.lists.get(i - 1));
                Set<URL> after = providers(recorder.lists.get(i));
                assertThat(Sets.symmetricDifference(before, after)).as("change %d", i).hasSize(1);
            }
        }
        // both listeners saw the same sequence
        assertThat(recorders.get(0).lists).isEqualTo(recorders.get(1).lists);
    }

    @Test
    void listenerThatRegistersInsideNotify_isNotCalledAgainBeforeItReturns_andEveryoneEndsWithTheLatestList() {
        MemoryRegistry registry = new MemoryRegistry(URL.valueOf("memory://a"));
        URL first = URL.valueOf("weft://10.0.0.1:1/" + SERVICE);
        URL second = URL.valueOf("weft://10.0.0.2:2/" + SERVICE);
        registry.register(first);
        Recorder other = new Recorder();
        registry.subscribe(SUBSCRIBER, other);
        Recorder registering = new Recorder(recorder -> {
            if (recorder.lists.size() == 1) {
                registry.register(second); // may call the registry, as the class comment says
            }
        });
        registry.subscribe(SUBSCRIBER, registering);

        assertThat(registering.overlaps).as("calls inside calls").hasValue(0);
        assertThat(registering.lists).containsExactly(List.of(first), List.of(first, second));
        assertThat(other.lists).containsExactly(List.of(first), List.of(first, second));
    }

    private static Set<URL> providers(List<URL> list) {
        Set<URL> result = new HashSet<>(list);
        result.removeIf(Categories::isEmptyMarker);
        return result;
    }

    private static final class Recorder implements NotifyListener {
        final List<List<URL>> lists = new CopyOnWriteArrayList<>();
        final AtomicInteger inside = new AtomicInteger();
        final AtomicInteger overlaps = new AtomicInteger();
        private final Consumer<Recorder> during;

        Recorder() {
            this(recorder -> { });
        }

        /** A recorder that runs {@code during} inside each call, after recording the list. */
        Recorder(Consumer<Recorder> during) {
            this.during = during;
        }

        @Override
        public void notify(List<URL> urls) {
            if (inside.incrementAndGet() != 1) {
                overlaps.incrementAndGet();
            }
            lists.add(List.copyOf(urls));
            during.accept(this);
            inside.decrementAndGet();
        }
    }
}
