package dev.weft.rpc.loadbalance;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.FakeTicker;
import dev.weft.rpc.spi.ExtensionDirector;
import static dev.weft.rpc.loadbalance.Fixtures.provider;
import static dev.weft.rpc.loadbalance.Fixtures.ticker;
import static dev.weft.rpc.loadbalance.Fixtures.director;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.weft.rpc.loadbalance.Fixtures.CONSUMER;
import static dev.weft.rpc.loadbalance.Fixtures.call;
import static org.assertj.core.api.Assertions.assertThat;

class RoundRobinLoadBalanceTest {

    private final FakeTicker ticker = ticker();
    private final dev.weft.rpc.spi.ExtensionDirector director = director(ticker);
    private final CallStats stats = CallStats.of(director);
    private final RoundRobinLoadBalance balance = withTicker(new RoundRobinLoadBalance());

    private String picks(List<Invoker<FakeService>> invokers, Invocation invocation, int n) {
        List<Invoker<FakeService>> picked = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            picked.add(balance.select(invokers, CONSUMER, invocation));
        }
        return Fixtures.names(picked);
    }

    @Test
    void roundRobin_weights_5_1_1_giveExactly_aabacaa_repeating() {
        List<Invoker<FakeService>> invokers = Fixtures.weighted(5, 1, 1);
        assertThat(picks(invokers, call("sayHello"), 21)).isEqualTo("a a b a c a a a a b a c a a a a b a c a a");
    }

    @Test
    void roundRobin_equalWeights_cycleInListOrder() {
        assertThat(picks(Fixtures.weighted(-1, -1, -1), call("sayHello"), 7)).isEqualTo("a b c a b c a");
    }

    @Test
    void roundRobin_tiesGoToTheEarlierInvoker() {
        assertThat(picks(Fixtures.weighted(2, 2, 1), call("sayHello"), 5)).isEqualTo("a b c a b");
    }

    @Test
    void roundRobin_weightZero_isSkipped_allZero_isPlainRoundRobin() {
        assertThat(picks(Fixtures.weighted(1, 0, 1), call("sayHello"), 4)).isEqualTo("a c a c");
        assertThat(picks(Fixtures.weighted(0, 0), call("sayHello"), 4)).isEqualTo("a b a b");
    }

    @Test
    void roundRobin_eachMethodHasItsOwnSequence() {
        List<Invoker<FakeService>> invokers = Fixtures.weighted(1, 1);
        List<Invoker<FakeService>> interleaved = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            interleaved.add(balance.select(invokers, CONSUMER, call("x")));
            interleaved.add(balance.select(invokers, CONSUMER, call("y")));
        }
        assertThat(Fixtures.names(interleaved)).isEqualTo("a a b b a a");
    }

    @Test
    void roundRobin_matchesReferenceAlgorithm_forLargeWeights() {
        int[] weights = {70_000, 3, 65_537};
        List<Invoker<FakeService>> invokers = Fixtures.weighted(weights);
        assertThat(picks(invokers, call("m"), 500)).isEqualTo(reference(weights, new long[3], 500));
    }

    @Test
    void roundRobin_changedContent_startsAFreshSequence_overWhatTheListHoldsNow() {
        FakeProvider<FakeService> a = provider("a", "weight=5");
        FakeProvider<FakeService> b = provider("b", "weight=1");
        FakeProvider<FakeService> c = provider("c", "weight=1");
        assertThat(picks(List.of(a, b, c), call("m"), 3)).isEqualTo("a a b");
        FakeProvider<FakeService> b3 = provider("b", "weight=3");
        assertThat(picks(List.of(a, b3, c), call("m"), 18)).isEqualTo(reference(new int[] {5, 3, 1}, new long[3], 18));
        assertThat(picks(List.of(a, b3), call("m"), 16)).isEqualTo(reference(new int[] {5, 3}, new long[2], 16));
    }

    @Test
    void roundRobin_listCopy_continuesTheSequenceInsteadOfRestarting() {
        List<Invoker<FakeService>> invokers = Fixtures.weighted(5, 1, 1);
        assertThat(picks(invokers, call("m"), 2)).isEqualTo("a a");
        assertThat(picks(new ArrayList<>(invokers), call("m"), 5)).isEqualTo("b a c a a");
    }

    @Test
    void roundRobin_duringWarmup_sharesFollowTheWarmedWeights() {
        long now = stats.currentTimeMillis();
        List<Invoker<FakeService>> invokers = List.of(provider("a", ""),
                provider("b", "warmup=100000&timestamp=" + (now - 50_000)));
        Map<Invoker<FakeService>, Integer> counts = Fixtures.counts(balance, invokers, CONSUMER, call("m"), 1500);
        assertThat(counts.get(invokers.get(1))).isEqualTo(500);
    }

    @Test
    void roundRobin_8ThreadsX100k_sharesAreExact_andListChangesLoseNothing() throws Exception {
        List<Invoker<FakeService>> invokers = Fixtures.weighted(5, 1, 1, 3);
        int threads = 8;
        int perThread = 100_000;
        Map<Invoker<FakeService>, AtomicInteger> counts = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            CountDownLatch start = new CountDownLatch(1);
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < perThread; i++) {
                        counts.computeIfAbsent(balance.select(invokers, CONSUMER, call("m")), k -> new AtomicInteger()).incrementAndGet();
                    }
                    return null;
                }));
            }
            start.countDown();
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }
        // 800,000 picks = 80,000 full periods of 10: shares are exact
        assertThat(counts.get(invokers.get(0))).hasValue(400_000);
        assertThat(counts.get(invokers.get(1))).hasValue(80_000);
        assertThat(counts.get(invokers.get(2))).hasValue(80_000);
        assertThat(counts.get(invokers.get(3))).hasValue(240_000);
    }

    @Test
    void roundRobin_threadsRacingOnANewList_shareOneSequence() throws Exception {
        int threads = 8;
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            for (int round = 0; round < 300; round++) {
                // a new list each round: every thread's first select finds no picker for it yet
                List<Invoker<FakeService>> invokers = Fixtures.weighted(5, 1, 1, 3);
                Map<Invoker<FakeService>, AtomicInteger> counts = new ConcurrentHashMap<>();
                CyclicBarrier start = new CyclicBarrier(threads);
                List<Future<?>> futures = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    futures.add(pool.submit(() -> {
                        start.await();
                        for (int i = 0; i < 10; i++) {
                            counts.computeIfAbsent(balance.select(invokers, CONSUMER, call("m")), k -> new AtomicInteger()).incrementAndGet();
                        }
                        return null;
                    }));
                }
                for (Future<?> future : futures) {
                    future.get();
                }
                // 80 picks = 8 full periods of one sequence: 40, 8, 8, 24
                assertThat(List.of(counts.get(invokers.get(0)).get(), counts.get(invokers.get(1)).get(),
                        counts.get(invokers.get(2)).get(), counts.get(invokers.get(3)).get()))
                        .as("round %d", round).containsExactly(40, 8, 8, 24);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /** The textbook algorithm, written independently, from a given state. */
    static String reference(int[] weights, long[] start, int n) {
        long[] current = start.clone();
        long total = 0;
        for (int w : weights) {
            total += w;
        }
        List<String> names = new ArrayList<>();
        for (int step = 0; step < n; step++) {
            int best = -1;
            for (int i = 0; i < weights.length; i++) {
                current[i] += weights[i];
                if (weights[i] > 0 && (best < 0 || current[i] > current[best])) {
                    best = i;
                }
            }
            current[best] -= total;
            names.add(String.valueOf((char) ('a' + best)));
        }
        return String.join(" ", names);
    }

    static long[] referenceState(int[] weights, long[] start, int n) {
        long[] current = start.clone();
        long total = 0;
        for (int w : weights) {
            total += w;
        }
        for (int step = 0; step < n; step++) {
            int best = -1;
            for (int i = 0; i < weights.length; i++) {
                current[i] += weights[i];
                if (weights[i] > 0 && (best < 0 || current[i] > current[best])) {
                    best = i;
                }
            }
            current[best] -= total;
        }
        return current;
    }

    private <B extends AbstractLoadBalance> B withTicker(B balance) {
        balance.setExtensionDirector(director);
        return balance;
    }
}
