package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeService;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** WeightTable as custom balancers read it: weights, warm-up boundaries, left-out providers, draws. */
class WeightTableBoundaryTest {

    private static final long NOW = 1_700_000_000_000L;

    private static FakeProvider<FakeService> provider(String name) {
        return FakeProvider.named(name);
    }

    private static WeightTable read(String method, long now, Invoker<?>... invokers) {
        return WeightTable.read(List.of(invokers), method, now);
    }

    /** A table of providers with these fixed weights (no warm-up). */
    private static WeightTable weighted(int... weights) {
        Invoker<?>[] invokers = new Invoker<?>[weights.length];
        for (int i = 0; i < weights.length; i++) {
            invokers[i] = provider("p" + i).weight(weights[i]);
        }
        return read(null, NOW, invokers);
    }

    private static int[] weightsOf(WeightTable table) {
        int[] weights = new int[table.size()];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = table.weight(i);
        }
        return weights;
    }

    @Test
    void fixedWeights_cumulativeIntervals_andTotals() {
        WeightTable table = weighted(3, 1, 2);
        assertThat(table.size()).isEqualTo(3);
        assertThat(table.total()).isEqualTo(6);
        assertThat(table.isUniform()).isFalse();
        assertThat(new int[] {table.indexOf(0), table.indexOf(2), table.indexOf(3), table.indexOf(4), table.indexOf(5)})
                .containsExactly(0, 0, 1, 2, 2);
        assertThat(weightsOf(table)).containsExactly(3, 1, 2);
        assertThat(table.refreshAtMillis()).isEqualTo(Long.MAX_VALUE);
        assertThat(table.refreshed(Long.MAX_VALUE - 1)).isSameAs(table);
        assertThat(table).hasToString("WeightTable[3, 1, 2]");
    }

    @Test
    void weightZero_isNotEligible_unlessEveryWeightIsZero_thenAllCountAsOne() {
        WeightTable mixed = weighted(0, 4);
        assertThat(mixed.effectiveWeight(0)).isZero();
        assertThat(mixed.effectiveWeight(1)).isPositive();
        assertThat(mixed.effectiveWeight(1)).isEqualTo(4);
        assertThat(mixed.total()).isPositive();
        WeightTable zeros = weighted(0, 0, 0);
        assertThat(zeros.effectiveWeight(2)).isPositive();
        assertThat(zeros.effectiveWeight(0)).isEqualTo(1);
        assertThat(zeros.total()).isPositive();
        assertThat(zeros.isUniform()).isTrue();
    }

    @Test
    void pick_drawsBelowTheTotal_andMapsTheDrawToItsInterval() {
        WeightTable table = weighted(3, 1, 2);
        assertThat(table.pick(ScriptedRandom.draws(0, 2, 3, 4, 5))).isZero();
        ScriptedRandom random = ScriptedRandom.draws(3, 5);
        assertThat(table.pick(random)).isEqualTo(1);
        assertThat(table.pick(random)).isEqualTo(2);
        assertThat(random.bounds()).containsExactly(6L, 6L);
    }

    @Test
    void pickOther_skipsTheExcludedInterval_fromItsFirstOffset_andReturnsTheExcludedWhenNoOtherIsEligible() {
        WeightTable table = weighted(3, 1, 2);
        // provider 1 holds offset 3 of [0, 6); drawn as if it weighed 0, offsets from 3 on belong to provider 2
        ScriptedRandom random = ScriptedRandom.draws(2, 3);
        assertThat(table.pickOther(random, 1)).isZero();
        assertThat(table.pickOther(random, 1)).isEqualTo(2);
        assertThat(random.bounds()).containsExactly(5L, 5L);

        WeightTable alone = weighted(0, 4);
        assertThat(alone.pickOther(ScriptedRandom.draws(), 1)).isEqualTo(1);
    }

    @Test
    void pick_leftOutAndZeroWeights_drawsAmongTheEligibleOnly_orMinusOne() {
        FakeProvider<FakeService> bad = provider("bad").parameter("weight", "-5");
        FakeProvider<FakeService> zeroA = provider("a").weight(0);
        FakeProvider<FakeService> zeroB = provider("b").weight(0);
        WeightTable table = read(null, NOW, bad, zeroA, zeroB);
        assertThat(table.isUniform()).isFalse();
        assertThat(table.effectiveWeight(0)).isZero();
        assertThat(table.effectiveWeight(1)).isPositive();
        ScriptedRandom random = ScriptedRandom.draws(1, 0);
        assertThat(table.pick(random)).isEqualTo(2);
        assertThat(table.pick(random)).isEqualTo(1);
        assertThat(random.bounds()).containsExactly(2L, 2L);

        WeightTable none = read(null, NOW, bad, provider("worse").parameter("weight", "x"));
        assertThat(none.total()).isZero();
        assertThat(none.pick(ScriptedRandom.draws())).isEqualTo(-1);
        assertThat(none.problems()).hasSize(2);
        assertThat(none.toString()).startsWith("WeightTable[0, 0] left out: [weight: -5 (expected:");
    }

    @Test
    void staticWeight_beyondIntRange_andMethodLevelKey_areNamedInTheProblem() {
        FakeProvider<FakeService> huge = provider("huge").parameter("weight", "2147483648");
        assertThat(read(null, NOW, huge).problems()).containsExactly("weight: 2147483648 (expected: an integer from 0 to 2147483647)"
                + " in provider URL " + huge.getUrl());
        FakeProvider<FakeService> method = provider("m").parameter("call.weight", "-1");
        assertThat(read("call", NOW, method).problems()).containsExactly("call.weight: -1 (expected: an integer >= 0)"
                + " in provider URL " + method.getUrl());
        assertThat(read("run", NOW, method).weight(0)).isEqualTo(100);
        FakeProvider<FakeService> max = provider("max").parameter("weight", "2147483647");
        assertThat(read(null, NOW, max).weight(0)).isEqualTo(Integer.MAX_VALUE);
    }

    @Test
    void warmupZero_givesTheFullWeight_evenToAProviderStampedAheadOfTheConsumersClock() {
        FakeProvider<FakeService> ahead = provider("ahead").weight(100)
                .parameter("timestamp", String.valueOf(NOW + 5000)).parameter("warmup", "0");
        assertThat(read(null, NOW, ahead).weight(0)).isEqualTo(100);
    }

    @Test
    void malformedWarmupKeys_leaveTheProviderOut_namingTheKey() {
        FakeProvider<FakeService> stamp = provider("s").parameter("timestamp", "soon");
        assertThat(read(null, NOW, stamp).problems()).containsExactly("timestamp: soon (expected: an integer) in provider URL "
                + stamp.getUrl());
        FakeProvider<FakeService> warm = provider("w").parameter("timestamp", String.valueOf(NOW)).parameter("warmup", "long");
        assertThat(read(null, NOW, warm).problems()).containsExactly("warmup: long (expected: an integer) in provider URL "
                + warm.getUrl());
    }

    @Test
    void warmup_weightGrowsLinearly_from1_toTheFullWeightAtTheEnd() {
        FakeProvider<FakeService> p = provider("p").weight(100).warmup(Duration.ofMillis(1000), NOW);
        List<Invoker<FakeService>> list = List.of(p);
        assertThat(WeightTable.read(list, null, NOW).weight(0)).isEqualTo(1);
        assertThat(WeightTable.read(list, null, NOW + 250).weight(0)).isEqualTo(25);
        assertThat(WeightTable.read(list, null, NOW + 999).weight(0)).isEqualTo(99);
        assertThat(WeightTable.read(list, null, NOW + 1000).weight(0)).isEqualTo(100);
        assertThat(WeightTable.read(list, null, NOW - 5000).weight(0)).isEqualTo(1);
    }

    @Test
    void warmup_tableSaysWhenItIsStale_andRefreshesOnlyThen() {
        FakeProvider<FakeService> p = provider("p").weight(100).warmup(Duration.ofMillis(1000), NOW);
        WeightTable table = WeightTable.read(List.of(p, provider("q")), null, NOW + 500);
        assertThat(table.refreshAtMillis()).isEqualTo(NOW + 500 + WeightTable.WARMUP_REFRESH_MILLIS);
        assertThat(table.isUniform()).isFalse();
        assertThat(table.refreshed(NOW + 509)).isSameAs(table);
        WeightTable later = table.refreshed(NOW + 510);
        assertThat(later).isNotSameAs(table);
        assertThat(later.weight(0)).isEqualTo(51);
        assertThat(later.weight(1)).isEqualTo(100);

        WeightTable nearEnd = WeightTable.read(List.of(p), null, NOW + 995);
        assertThat(nearEnd.refreshAtMillis()).isEqualTo(NOW + 1000);
        assertThat(nearEnd.refreshed(NOW + 1000).refreshAtMillis()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void warmup_zeroOrNegativePeriod_orWeightZero_meansNoWarmup() {
        FakeProvider<FakeService> off = provider("off").weight(40).parameter("timestamp", String.valueOf(NOW)).parameter("warmup", "0");
        FakeProvider<FakeService> negative = provider("neg").weight(40).parameter("timestamp", String.valueOf(NOW)).parameter("warmup", "-3");
        FakeProvider<FakeService> zero = provider("zero").weight(0).warmup(Duration.ofMillis(1000), NOW);
        WeightTable table = read(null, NOW, off, negative, zero);
        assertThat(weightsOf(table)).containsExactly(40, 40, 0);
        assertThat(table.refreshAtMillis()).isEqualTo(Long.MAX_VALUE);
    }

    @Test
    void warmup_defaultPeriodIsTenMinutes_andATimestampNearTheEndOfTimeStillWarmsUp() {
        FakeProvider<FakeService> p = provider("p").weight(100).parameter("timestamp", String.valueOf(NOW));
        assertThat(read(null, NOW + 300_000, p).weight(0)).isEqualTo(50);
        assertThat(read(null, NOW + 600_000, p).weight(0)).isEqualTo(100);
        FakeProvider<FakeService> future = provider("f").weight(100).parameter("timestamp", String.valueOf(Long.MAX_VALUE - 10));
        WeightTable table = read(null, NOW, future);
        assertThat(table.weight(0)).isEqualTo(1);
        assertThat(table.refreshAtMillis()).isEqualTo(NOW + WeightTable.WARMUP_REFRESH_MILLIS);
    }
}
