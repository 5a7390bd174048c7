package dev.weft.rpc.proxy.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PerInterfaceCacheTest {

    interface Fresh {
    }

    @Test
    void eightThreads_askingAtOnce_runTheFactoryOnce_andShareTheValue() throws Exception {
        AtomicInteger runs = new AtomicInteger();
        PerInterfaceCache<Object> cache = new PerInterfaceCache<>(type -> {
            runs.incrementAndGet();
            sleep(50);
            return new Object();
        });
        CyclicBarrier start = new CyclicBarrier(8);
        ExecutorService pool = Executors.newFixedThreadPool(8);
        try {
            List<Future<Object>> results = new ArrayList<>();
            for (int i = 0; i < 8; i++) {
                results.add(pool.submit(() -> {
                    start.await(10, TimeUnit.SECONDS);
                    return cache.get(Fresh.class);
                }));
            }
            Object first = results.get(0).get(10, TimeUnit.SECONDS);
            for (Future<Object> result : results) {
                assertThat(result.get(10, TimeUnit.SECONDS)).isSameAs(first);
            }
        } finally {
            pool.shutdownNow();
            assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(runs).hasValue(1);
    }

    @Test
    void failingFactory_cachesNothing_andIsRetried() {
        AtomicInteger runs = new AtomicInteger();
        PerInterfaceCache<String> cache = new PerInterfaceCache<>(type -> {
            if (runs.incrementAndGet() == 1) {
                throw new IllegalStateException("first attempt fails");
            }
            return "second";
        });

        assertThatThrownBy(() -> cache.get(Fresh.class)).hasMessage("first attempt fails");
        assertThat(cache.get(Fresh.class)).isEqualTo("second");
        assertThat(cache.get(Fresh.class)).isEqualTo("second");
        assertThat(runs).hasValue(2);
    }

    private static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
