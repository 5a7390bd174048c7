package dev.weft.rpc.loadbalance.internal;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.loadbalance.FakeInvoker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

class SnapshotCacheTest {

    private final AtomicInteger computed = new AtomicInteger();
    private final SnapshotCache<Integer> cache = new SnapshotCache<>(list -> {
        computed.incrementAndGet();
        return list.size();
    });

    private static Invoker<Object> invoker(int i) {
        return FakeInvoker.of("i" + i, i, "");
    }

    @Test
    void get_computesOncePerListInstance_evenWhenAlternatingBetweenLists() {
        List<Invoker<Object>> a = List.of(invoker(1), invoker(2));
        List<Invoker<Object>> b = List.of(invoker(3), invoker(4), invoker(5));
        for (int i = 0; i < 10; i++) {
            assertThat(cache.get(a)).isEqualTo(2);
            assertThat(cache.get(b)).isEqualTo(3);
        }
        assertThat(computed).hasValue(2);
        assertThat(cache.get(new ArrayList<>(a))).as("an equal copy is another instance").isEqualTo(2);
        assertThat(computed).hasValue(3);
    }

    @Test
    void get_recomputes_whenAListIsMutatedInPlaceToAnotherSize() {
        List<Invoker<Object>> mutable = new ArrayList<>(List.of(invoker(1), invoker(2)));
        assertThat(cache.get(mutable)).isEqualTo(2);
        mutable.add(invoker(3));
        assertThat(cache.get(mutable)).as("size changed: the slot misses and the map entry does not match").isEqualTo(3);
        assertThat(cache.get(mutable)).isEqualTo(3);
        assertThat(computed).hasValue(2);
    }

    @Test
    void get_manyListsInTurn_computeOnceEach() {
        List<List<Invoker<Object>>> lists = new ArrayList<>();
        for (int i = 0; i < 20; i++) {
            lists.add(List.of(invoker(i), invoker(100 + i)));
        }
        for (int round = 0; round < 5; round++) {
            for (List<Invoker<Object>> list : lists) {
                assertThat(cache.get(list)).isEqualTo(2);
            }
        }
        assertThat(computed).hasValue(20);
    }

    @Test
    void get_racingFirstCalls_allGetTheValueStoredFirst() throws Exception {
        int threads = 4;
        CountDownLatch allComputing = new CountDownLatch(threads);
        SnapshotCache<Object> racing = new SnapshotCache<>(list -> {
            allComputing.countDown();
            try {
                // every thread computes its own value before any of them stores one
                assertThat(allComputing.await(10, TimeUnit.SECONDS)).isTrue();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return new Object();
        });
        List<Invoker<Object>> list = List.of(invoker(1), invoker(2));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Object>> values = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                values.add(pool.submit(() -> racing.get(list)));
            }
            Set<Object> distinct = Collections.newSetFromMap(new IdentityHashMap<>());
            for (Future<Object> value : values) {
                distinct.add(value.get(10, TimeUnit.SECONDS));
            }
            assertThat(distinct).as("values handed out for one list").hasSize(1);
            assertThat(racing.get(list)).isSameAs(distinct.iterator().next());
        } finally {
            pool.shutdownNow();
        }
    }
}
