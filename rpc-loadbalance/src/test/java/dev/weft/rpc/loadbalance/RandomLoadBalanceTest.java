package dev.weft.rpc.loadbalance;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.FakeTicker;
import java.util.concurrent.TimeUnit;
import dev.weft.rpc.spi.ExtensionDirector;
import static dev.weft.rpc.loadbalance.Fixtures.provider;
import static dev.weft.rpc.loadbalance.Fixtures.ticker;
import static dev.weft.rpc.loadbalance.Fixtures.director;

import dev.weft.rpc.common.Invoker;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Random;

import static dev.weft.rpc.loadbalance.Fixtures.CONSUMER;
import static dev.weft.rpc.loadbalance.Fixtures.call;
import static org.assertj.core.api.Assertions.assertThat;

class RandomLoadBalanceTest {

    private final FakeTicker ticker = ticker();
    private final dev.weft.rpc.spi.ExtensionDirector director = director(ticker);
    private final CallStats stats = CallStats.of(director);
    private final Random seeded = new Random(20261129);
    private final RandomLoadBalance balance = withTicker(new RandomLoadBalance(() -> seeded));

    @Test
    void random_equalWeights_isUniform_chiSquareBelowCritical() {
        List<Invoker<FakeService>> invokers = Fixtures.plain(10);
        Map<Invoker<FakeService>, Integer> counts = Fixtures.counts(balance, invokers, CONSUMER, call("sayHello"), 100_000);
        double[] shares = new double[10];
        java.util.Arrays.fill(shares, 0.1);
        // 9 degrees of freedom, p = 0.001
        assertThat(Fixtures.chiSquare(counts.values().stream().mapToInt(Integer::intValue).toArray(), shares)).isLessThan(27.88);
    }

    @Test
    void random_weights_3_1_2_givePicksInProportion() {
        List<Invoker<FakeService>> invokers = Fixtures.weighted(3, 1, 2);
        int[] observed = Fixtures.counts(balance, invokers, CONSUMER, call("sayHello"), 60_000).values().stream().mapToInt(Integer::intValue).toArray();
        // 2 degrees of freedom, p = 0.001
        assertThat(Fixtures.chiSquare(observed, new double[] {0.5, 1 / 6.0, 1 / 3.0})).isLessThan(13.82);
        assertThat(observed[0]).isBetween(29_000, 31_000);
    }

    @Test
    void random_weightZero_isNeverPicked_unlessAllAreZero() {
        List<Invoker<FakeService>> someZero = Fixtures.weighted(0, 5, 0, 5);
        Map<Invoker<FakeService>, Integer> counts = Fixtures.counts(balance, someZero, CONSUMER, call("sayHello"), 10_000);
        assertThat(counts.get(someZero.get(0))).isZero();
        assertThat(counts.get(someZero.get(2))).isZero();

        List<Invoker<FakeService>> allZero = Fixtures.weighted(0, 0, 0);
        Map<Invoker<FakeService>, Integer> uniform = Fixtures.counts(balance, allZero, CONSUMER, call("sayHello"), 30_000);
        assertThat(uniform.values()).allSatisfy(n -> assertThat(n).isBetween(9_500, 10_500));
    }

    @Test
    void random_methodLevelWeight_appliesToThatMethodOnly() {
        List<Invoker<FakeService>> invokers = List.of(provider("a", "sayHello.weight=0"), provider("b", ""));
        assertThat(Fixtures.counts(balance, invokers, CONSUMER, call("sayHello"), 1000).get(invokers.get(0))).isZero();
        assertThat(Fixtures.counts(balance, invokers, CONSUMER, call("other"), 1000).get(invokers.get(0))).isBetween(400, 600);
    }

    @Test
    void warmup_weightAt0_50_100PercentOfThePeriod_is1_50_100() {
        long now = stats.currentTimeMillis();
        assertThat(warmed(now, now)).isEqualTo(1);
        assertThat(warmed(now - 300_000, now)).isEqualTo(50);
        assertThat(warmed(now - 600_000, now)).isEqualTo(100);
        assertThat(warmed(now + 60_000, now)).as("a timestamp in the future counts as just started").isEqualTo(1);
    }

    private int warmed(long timestamp, long now) {
        return WeightTable.read(List.of(provider("x", "timestamp=" + timestamp)), "m", now).weight(0);
    }

    @Test
    void warmup_providerStartedHalfAPeriodAgo_getsHalfItsShare_thenFullShareAfterThePeriod() {
        long now = stats.currentTimeMillis();
        FakeProvider<FakeService> old = provider("old", "");
        FakeProvider<FakeService> fresh = provider("fresh", "warmup=60000&timestamp=" + (now - 30_000));
        List<Invoker<FakeService>> invokers = List.of(old, fresh);
        // weights 100 : 50 -> fresh gets one third
        assertThat(Fixtures.counts(balance, invokers, CONSUMER, call("sayHello"), 30_000).get(fresh)).isBetween(9_500, 10_500);
        ticker.advance(30_000, TimeUnit.MILLISECONDS);
        // the same list instance: weights are recomputed because a provider was warming up
        assertThat(Fixtures.counts(balance, invokers, CONSUMER, call("sayHello"), 30_000).get(fresh)).isBetween(14_500, 15_500);
    }

    @Test
    void random_equalWeightsShortcut_neverLeaksIntoOtherLists() {
        List<Invoker<FakeService>> equal = Fixtures.plain(2);
        List<Invoker<FakeService>> zeroFirst = Fixtures.weighted(0, 100);
        List<Invoker<FakeService>> zeroForSayHello = List.of(provider("a", "sayHello.weight=0"), provider("b", ""));
        long now = stats.currentTimeMillis();
        List<Invoker<FakeService>> warming = List.of(provider("c", ""), provider("d", "warmup=60000&timestamp=" + now));
        int equalFirst = 0;
        int warmingFresh = 0;
        for (int i = 0; i < 2_000; i++) {
            equalFirst += balance.select(equal, CONSUMER, call("sayHello")) == equal.get(0) ? 1 : 0;
            assertThat(balance.select(zeroFirst, CONSUMER, call("sayHello"))).isSameAs(zeroFirst.get(1));
            assertThat(balance.select(zeroForSayHello, CONSUMER, call("sayHello"))).isSameAs(zeroForSayHello.get(1));
            warmingFresh += balance.select(warming, CONSUMER, call("sayHello")) == warming.get(1) ? 1 : 0;
        }
        assertThat(equalFirst).isBetween(900, 1_100);
        assertThat(warmingFresh).as("weight 1 of 101 while just started").isLessThan(60);
        ticker.advance(60_000, TimeUnit.MILLISECONDS);
        warmingFresh = 0;
        for (int i = 0; i < 2_000; i++) {
            balance.select(equal, CONSUMER, call("sayHello"));
            warmingFresh += balance.select(warming, CONSUMER, call("sayHello")) == warming.get(1) ? 1 : 0;
        }
        assertThat(warmingFresh).as("warmed up: equal weights").isBetween(900, 1_100);
    }

    private <B extends AbstractLoadBalance> B withTicker(B balance) {
        balance.setExtensionDirector(director);
        return balance;
    }
}
