package dev.weft.rpc.examples.extension;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Invocations;
import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.function.LongUnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalFirstLoadBalanceTest {

    private static final Invocation RUN = Invocations.of(Runnable.class, "run");
    private static final URL CONSUMER_IN_US = URL.valueOf("consumer://10.0.0.9/java.lang.Runnable?localfirst.zone=us");
    private static final URL CONSUMER_WITHOUT_ZONE = URL.valueOf("consumer://10.0.0.9/java.lang.Runnable");

    private final FakeProvider<Runnable> euA = provider("eu-a", "eu").weight(100);
    private final FakeProvider<Runnable> usB = provider("us-b", "us").weight(300);
    private final FakeProvider<Runnable> usC = provider("us-c", "US").weight(100);
    private final FakeProvider<Runnable> noZone = FakeProvider.of(Runnable.class, "plain").weight(100);
    private final List<Invoker<Runnable>> mixed = List.of(euA, usB, usC, noZone);

    /** A provider named {@code host} in {@code zone}. */
    private static FakeProvider<Runnable> provider(String host, String zone) {
        return FakeProvider.of(Runnable.class, host).parameter(LocalFirstLoadBalance.PROVIDER_ZONE_KEY, zone);
    }

    /** A random source that returns the given values in order and records the bounds it was asked for. */
    private static final class ScriptedRandom implements LongUnaryOperator {
        final Deque<Long> values = new ArrayDeque<>();
        final List<Long> bounds = new ArrayList<>();

        ScriptedRandom(long... values) {
            for (long value : values) {
                this.values.add(value);
            }
        }

        @Override
        public long applyAsLong(long bound) {
            bounds.add(bound);
            return values.removeFirst();
        }
    }

    @Test
    void localZone_picksOnlyLocalProviders_byCumulativeWeight() {
        // local candidates: us-b (300) then us-c (100, zone compared ignoring case): total 400
        ScriptedRandom random = new ScriptedRandom(0, 299, 300, 399);
        LocalFirstLoadBalance balancer = new LocalFirstLoadBalance(random);

        List<Invoker<Runnable>> picks = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            picks.add(balancer.select(mixed, CONSUMER_IN_US, RUN));
        }

        assertThat(picks).containsExactly(usB, usB, usC, usC);
        assertThat(random.bounds).containsOnly(400L);
    }

    @Test
    void noProviderInZone_fallsBackToWeightedRandomOverAll() {
        URL consumerInAsia = CONSUMER_IN_US.addParameter(LocalFirstLoadBalance.CONSUMER_ZONE_KEY, "asia");
        ScriptedRandom random = new ScriptedRandom(99, 100, 399, 400, 599);
        LocalFirstLoadBalance balancer = new LocalFirstLoadBalance(random);

        List<Invoker<Runnable>> picks = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            picks.add(balancer.select(mixed, consumerInAsia, RUN));
        }

        assertThat(picks).containsExactly(euA, usB, usB, usC, noZone);
        assertThat(random.bounds).containsOnly(600L);
    }

    @Test
    void consumerWithoutZone_isPlainWeightedRandom() {
        ScriptedRandom random = new ScriptedRandom(0, 599);
        LocalFirstLoadBalance balancer = new LocalFirstLoadBalance(random);

        assertThat(balancer.select(mixed, CONSUMER_WITHOUT_ZONE, RUN)).isSameAs(euA);
        assertThat(balancer.select(mixed, CONSUMER_WITHOUT_ZONE, RUN)).isSameAs(noZone);
        assertThat(random.bounds).containsExactly(600L, 600L);
    }

    @Test
    void methodLevelZone_overridesInterfaceLevel() {
        URL consumer = CONSUMER_IN_US.addParameter("run." + LocalFirstLoadBalance.CONSUMER_ZONE_KEY, "eu");
        ScriptedRandom random = new ScriptedRandom(0);

        assertThat(new LocalFirstLoadBalance(random).select(mixed, consumer, RUN)).isSameAs(euA);
        assertThat(random.bounds).containsExactly(100L);
    }

    @Test
    void methodLevelWeight_overridesProviderWeight() {
        FakeProvider<Runnable> heavyForRun = provider("us-d", "us").weight(1).parameter("run.weight", "700");
        ScriptedRandom random = new ScriptedRandom(299);

        Invoker<Runnable> picked = new LocalFirstLoadBalance(random).select(List.of(usB, heavyForRun), CONSUMER_IN_US, RUN);

        assertThat(picked).isSameAs(usB);
        assertThat(random.bounds).containsExactly(1000L);
    }

    @Test
    void zeroWeightLocals_areNeverPicked_whileAnotherLocalHasWeight() {
        FakeProvider<Runnable> drained = provider("us-z", "us").weight(0);
        Random random = new Random(7);
        LocalFirstLoadBalance balancer = new LocalFirstLoadBalance(random::nextLong);

        for (int i = 0; i < 1_000; i++) {
            assertThat(balancer.select(List.of(drained, usC), CONSUMER_IN_US, RUN)).isSameAs(usC);
        }
    }

    @Test
    void allLocalsWeightZero_pickUniformlyAmongLocals() {
        FakeProvider<Runnable> z1 = provider("us-z1", "us").weight(0);
        FakeProvider<Runnable> z2 = provider("us-z2", "us").weight(0);
        ScriptedRandom random = new ScriptedRandom(0, 1);
        LocalFirstLoadBalance balancer = new LocalFirstLoadBalance(random);
        List<Invoker<Runnable>> invokers = List.of(euA, z1, z2);

        assertThat(balancer.select(invokers, CONSUMER_IN_US, RUN)).isSameAs(z1);
        assertThat(balancer.select(invokers, CONSUMER_IN_US, RUN)).isSameAs(z2);
        assertThat(random.bounds).containsExactly(2L, 2L);
    }

    @Test
    void localShare_followsWeights_withSeededRandom() {
        Random random = new Random(42);
        LocalFirstLoadBalance balancer = new LocalFirstLoadBalance(random::nextLong);
        Map<Invoker<Runnable>, Integer> counts = new HashMap<>();

        for (int i = 0; i < 40_000; i++) {
            counts.merge(balancer.select(mixed, CONSUMER_IN_US, RUN), 1, Integer::sum);
        }

        assertThat(counts).containsOnlyKeys(usB, usC);
        // expected 30,000 : 10,000; 3 standard deviations is about 260
        assertThat(counts.get(usB)).isBetween(29_600, 30_400);
    }

    @Test
    void oneInvoker_isReturnedWithoutDrawing() {
        ScriptedRandom random = new ScriptedRandom();

        assertThat(new LocalFirstLoadBalance(random).select(List.of(euA), CONSUMER_IN_US, RUN)).isSameAs(euA);
        assertThat(random.bounds).isEmpty();
    }

    @Test
    void emptyList_throwsNoInvokerAvailable_namingServiceAndMethod() {
        LocalFirstLoadBalance balancer = new LocalFirstLoadBalance();

        assertThatThrownBy(() -> balancer.select(List.<Invoker<Runnable>>of(), CONSUMER_IN_US, RUN))
                .isInstanceOfSatisfying(RpcException.class,
                        e -> assertThat(e.getCode()).isEqualTo(RpcException.NO_INVOKER_AVAILABLE))
                .hasMessageContaining("java.lang.Runnable.run")
                .hasMessageContaining("LocalFirstLoadBalance");
    }

    @Test
    void negativeWeight_leavesThatProviderOut_whileTheOthersServe() {
        // the kit refuses weight(-5); parameter() writes any value, to test the balancer's own check
        FakeProvider<Runnable> broken = provider("us-x", "us").parameter("weight", "-5");
        LocalFirstLoadBalance balancer = new LocalFirstLoadBalance(new Random(5)::nextLong);

        for (int i = 0; i < 100; i++) {
            assertThat(balancer.select(List.of(broken, usB), CONSUMER_IN_US, RUN)).isSameAs(usB);
        }
    }

    @Test
    void concurrentSelects_neverLeaveTheZone_andLoseNoPick() throws Exception {
        LocalFirstLoadBalance balancer = new LocalFirstLoadBalance(new Random(3)::nextLong);
        int threads = 8;
        int perThread = 50_000;
        AtomicLongArray counts = new AtomicLongArray(mixed.size());
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    for (int i = 0; i < perThread; i++) {
                        counts.incrementAndGet(mixed.indexOf(balancer.select(mixed, CONSUMER_IN_US, RUN)));
                    }
                }));
            }
            for (Future<?> future : futures) {
                future.get();
            }
        } finally {
            pool.shutdownNow();
        }

        assertThat(counts.get(0)).isZero();
        assertThat(counts.get(3)).isZero();
        assertThat(counts.get(1) + counts.get(2)).isEqualTo((long) threads * perThread);
    }
}
