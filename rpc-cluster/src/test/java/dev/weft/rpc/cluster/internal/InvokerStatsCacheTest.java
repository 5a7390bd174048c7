package dev.weft.rpc.cluster.internal;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.InvokerStats;
import org.junit.jupiter.api.Test;

import java.lang.ref.WeakReference;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class InvokerStatsCacheTest {

    private final InvokerStatsCache cache = new InvokerStatsCache();

    private static final class Provider implements Invoker<Object> {
        private final URL url;

        Provider(int i) {
            this.url = URL.valueOf("weft://10.0.0." + (i % 250) + ":" + (20000 + i) + "/svc");
        }

        @Override
        public Class<Object> getInterface() {
            return Object.class;
        }

        @Override
        public Result invoke(Invocation invocation) {
            throw new UnsupportedOperationException("not called");
        }

        @Override
        public URL getUrl() {
            return url;
        }

        @Override
        public boolean isAvailable() {
            return true;
        }

        @Override
        public void destroy() {
        }
    }

    private static List<Invoker<Object>> providers(int n) {
        List<Invoker<Object>> list = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            list.add(new Provider(i));
        }
        return List.copyOf(list);
    }

    private void assertResolvesLikeTheRegistry(List<Invoker<Object>> invokers) {
        for (Invoker<Object> invoker : invokers) {
            assertThat(cache.of(invoker)).isSameAs(InvokerStats.of(invoker));
        }
    }

    @Test
    void of_answersTheRegistryInstance_beforeAndAfterIndexing() {
        List<Invoker<Object>> list = providers(10);
        assertResolvesLikeTheRegistry(list);
        cache.prepare(list);
        cache.prepare(list);
        assertThat(cache.isIndexed(list)).isTrue();
        assertResolvesLikeTheRegistry(list);
    }

    @Test
    void prepare_indexesAListOnlyTheSecondTimeInARow_soANewListEveryCallBuildsNothing() {
        List<Invoker<Object>> members = providers(5);
        for (int i = 0; i < 10; i++) {
            List<Invoker<Object>> copy = List.copyOf(new ArrayList<>(members));
            cache.prepare(copy);
            assertThat(cache.isIndexed(copy)).isFalse();
            assertResolvesLikeTheRegistry(copy);
        }
        cache.prepare(members);
        assertThat(cache.isIndexed(members)).isFalse();
        cache.prepare(members);
        assertThat(cache.isIndexed(members)).isTrue();
    }

    @Test
    void twoAlternatingLists_bothStayIndexed_aThirdEvictsTheOldest() {
        List<Invoker<Object>> normal = providers(4);
        List<Invoker<Object>> mock = providers(1);
        List<Invoker<Object>> third = providers(3);
        cache.prepare(normal);
        cache.prepare(normal);
        cache.prepare(mock);
        cache.prepare(mock);
        for (int i = 0; i < 5; i++) {
            cache.prepare(normal);
            cache.prepare(mock);
        }
        assertThat(cache.isIndexed(normal)).isTrue();
        assertThat(cache.isIndexed(mock)).isTrue();

        cache.prepare(third);
        cache.prepare(third);
        assertThat(cache.isIndexed(third)).isTrue();
        assertThat(cache.isIndexed(mock)).isTrue();
        assertThat(cache.isIndexed(normal)).isFalse();
        assertResolvesLikeTheRegistry(normal);
        assertResolvesLikeTheRegistry(third);
    }

    @Test
    void invokersInNoTable_areLookedUpInTheRegistry() {
        List<Invoker<Object>> list = providers(8);
        cache.prepare(list);
        cache.prepare(list);
        Invoker<Object> stranger = new Provider(99);
        assertThat(cache.of(stranger)).isSameAs(InvokerStats.of(stranger));
    }

    @Test
    void index_resolvesEveryMemberOfLargeLists_andSkipsDuplicates() {
        for (int n : new int[] {1, 2, 3, 16, 17, 100, 1000}) {
            List<Invoker<Object>> list = providers(n);
            InvokerStatsCache.Index index = InvokerStatsCache.Index.of(list);
            for (Invoker<Object> invoker : list) {
                assertThat(index.get(invoker)).as("n=%s", n).isSameAs(InvokerStats.of(invoker));
            }
            assertThat(index.get(new Provider(0))).isNull();
        }
        Invoker<Object> twice = new Provider(1);
        List<Invoker<Object>> withDuplicate = List.of(twice, new Provider(2), twice);
        assertThat(InvokerStatsCache.Index.of(withDuplicate).get(twice)).isSameAs(InvokerStats.of(twice));
    }

    @Test
    void indexedInvokersAndLists_remainReclaimable() throws InterruptedException {
        List<Invoker<Object>> list = providers(3);
        cache.prepare(list);
        cache.prepare(list);
        assertThat(cache.isIndexed(list)).isTrue();
        WeakReference<Object> member = new WeakReference<>(list.get(1));
        WeakReference<Object> listRef = new WeakReference<>(list);
        list = null;
        for (int i = 0; i < 50 && (member.get() != null || listRef.get() != null); i++) {
            System.gc();
            Thread.sleep(10);
        }
        assertThat(member.get()).as("an indexed invoker").isNull();
        assertThat(listRef.get()).as("an indexed list").isNull();
        Invoker<Object> stranger = new Provider(5);
        assertThat(cache.of(stranger)).isSameAs(InvokerStats.of(stranger));
    }

    @Test
    void clear_dropsEveryTable() {
        List<Invoker<Object>> list = providers(3);
        cache.prepare(list);
        cache.prepare(list);
        cache.clear();
        assertThat(cache.isIndexed(list)).isFalse();
        assertResolvesLikeTheRegistry(list);
    }

    @Test
    void manyThreads_changingLists_alwaysResolveTheRegistryInstance() throws Exception {
        List<List<Invoker<Object>>> generations = new ArrayList<>();
        List<Invoker<Object>> pool = providers(40);
        for (int g = 0; g < 6; g++) {
            generations.add(List.copyOf(pool.subList(g * 5, g * 5 + 10)));
        }
        int threads = 8;
        CyclicBarrier start = new CyclicBarrier(threads);
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int seed = t;
                results.add(executor.submit(() -> {
                    start.await(5, TimeUnit.SECONDS);
                    int mismatches = 0;
                    for (int i = 0; i < 20_000; i++) {
                        List<Invoker<Object>> list = generations.get(((i / 50) + seed) % generations.size());
                        cache.prepare(list);
                        Invoker<Object> invoker = list.get((i * 7 + seed) % list.size());
                        if (cache.of(invoker) != InvokerStats.of(invoker)) {
                            mismatches++;
                        }
                    }
                    return mismatches;
                }));
            }
            for (Future<Integer> result : results) {
                assertThat(result.get(30, TimeUnit.SECONDS)).isZero();
            }
        } finally {
            executor.shutdownNow();
            assertThat(executor.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
        }
    }
}
