package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeProviders;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.FakeTicker;
import dev.weft.rpc.testing.Invocations;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Exact picks of the random-driven balancers under a scripted random source: which draw maps to
 * which provider, how many draws a pick takes, and the boundaries between intervals.
 */
class BalancerPickSequenceTest {

    private static final URL CONSUMER = URL.valueOf("consumer://10.1.0.1/" + FakeService.class.getName());
    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);

    private final FakeTicker ticker = new FakeTicker();
    private final ExtensionDirector director = new ExtensionDirector(BalancerPickSequenceTest.class.getClassLoader(), ticker);
    private final CallStats stats = CallStats.of(director);
    private final Invocation call = Invocations.of(FakeService.class, "call", "x");

    @AfterEach
    void close() {
        director.close();
    }

    private static List<Invoker<FakeService>> invokers(List<FakeProvider<FakeService>> providers) {
        return FakeProviders.invokers(providers);
    }

    private static List<String> picks(Picker<FakeService> picker, Invocation invocation, int count) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            names.add(((FakeProvider<?>) picker.pick(invocation)).name());
        }
        return names;
    }

    private void latency(Invoker<?> invoker, long nanos, boolean success, int times) {
        InvokerStats counters = stats.get(invoker);
        counters.timeLatency();
        for (int i = 0; i < times; i++) {
            long started = counters.startCall();
            ticker.advance(nanos, TimeUnit.NANOSECONDS);
            counters.endCall(started, success);
        }
    }

    // ------------------------------------------------------------------ random

    @Test
    void random_equalWeights_drawsTheIndexBelowTheListSize() {
        List<Invoker<FakeService>> list = invokers(FakeProviders.of(FakeService.class, 3));
        ScriptedRandom random = ScriptedRandom.draws(2, 0, 1, 2);
        Picker<FakeService> picker = new RandomLoadBalance(() -> random).picker(list, CONSUMER, "call", stats);
        assertThat(picks(picker, call, 4)).containsExactly("c", "a", "b", "c");
        assertThat(random.bounds()).containsOnly(3L);
    }

    @Test
    void random_weights_eachDrawBelowTheTotalFallsInItsProvidersInterval() {
        List<Invoker<FakeService>> list = invokers(FakeProviders.withWeights(FakeService.class, 3, 1, 2));
        ScriptedRandom random = ScriptedRandom.draws(0, 2, 3, 4, 5);
        Picker<FakeService> picker = new RandomLoadBalance(() -> random).picker(list, CONSUMER, "call", stats);
        assertThat(picks(picker, call, 5)).containsExactly("a", "a", "b", "c", "c");
        assertThat(random.bounds()).containsOnly(6L);
    }

    @Test
    void random_everyProviderLeftOut_failsNamingTheProblemsAndTheConsumer() {
        FakeProvider<FakeService> a = FakeProvider.named("a").parameter("weight", "-5");
        FakeProvider<FakeService> b = FakeProvider.named("b").parameter("weight", "x");
        Picker<FakeService> picker = new RandomLoadBalance(ScriptedRandom::new).picker(List.of(a, b), CONSUMER, "call", stats);
        assertThatThrownBy(() -> picker.pick(call))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.getCode()).isEqualTo(RpcException.NO_INVOKER_AVAILABLE))
                .hasMessage("No provider may be picked for " + FakeService.class.getName() + ".call: every provider is left out ("
                        + "weight: -5 (expected: an integer >= 0) in provider URL " + a.getUrl() + "; "
                        + "weight: x (expected: an integer >= 0) in provider URL " + b.getUrl()
                        + "; consumer: " + CONSUMER + ")");
    }

    // ------------------------------------------------------------------ leastactive

    @Test
    void leastActive_aSingleLeastBusyProvider_isPickedWithoutAnyDraw() {
        List<FakeProvider<FakeService>> providers = FakeProviders.of(FakeService.class, 3);
        stats.get(providers.get(0)).startCall();
        stats.get(providers.get(2)).startCall();
        ScriptedRandom random = ScriptedRandom.draws();
        Picker<FakeService> picker = new LeastActiveLoadBalance(() -> random).picker(invokers(providers), CONSUMER, "call", stats);
        assertThat(picks(picker, call, 3)).containsExactly("b", "b", "b");
        assertThat(random.bounds()).isEmpty();
    }

    @Test
    void leastActive_tiesWithDifferentWeights_drawBelowTheTiedWeightSum_intervalByInterval() {
        List<FakeProvider<FakeService>> providers = FakeProviders.withWeights(FakeService.class, 100, 300, 50, 100);
        stats.get(providers.get(2)).startCall();
        ScriptedRandom random = ScriptedRandom.draws(0, 99, 100, 399, 400, 499);
        Picker<FakeService> picker = new LeastActiveLoadBalance(() -> random).picker(invokers(providers), CONSUMER, "call", stats);
        assertThat(picks(picker, call, 6)).containsExactly("a", "a", "b", "b", "d", "d");
        assertThat(random.bounds()).containsOnly(500L);
    }

    @Test
    void leastActive_tiesWithEqualWeights_drawBelowTheTiedWeightSum_skippingWeightZero() {
        List<FakeProvider<FakeService>> providers = FakeProviders.withWeights(FakeService.class, 0, 7, 7, 7);
        stats.get(providers.get(1)).startCall();
        ScriptedRandom random = ScriptedRandom.draws(0, 6, 7, 13);
        Picker<FakeService> picker = new LeastActiveLoadBalance(() -> random).picker(invokers(providers), CONSUMER, "call", stats);
        assertThat(picks(picker, call, 4)).containsExactly("c", "c", "d", "d");
        assertThat(random.bounds()).containsOnly(14L);
    }

    @Test
    void leastActive_everyEligibleProviderTied_drawsFromTheWholeWeightTable() {
        List<FakeProvider<FakeService>> providers = FakeProviders.withWeights(FakeService.class, 100, 0, 300);
        ScriptedRandom random = ScriptedRandom.draws(99, 100, 399);
        Picker<FakeService> picker = new LeastActiveLoadBalance(() -> random).picker(invokers(providers), CONSUMER, "call", stats);
        assertThat(picks(picker, call, 3)).containsExactly("a", "c", "c");
        assertThat(random.bounds()).containsOnly(400L);
    }

    @Test
    void leastActive_everyProviderLeftOut_failsWithNoInvokerAvailable() {
        List<Invoker<FakeService>> list = List.of(FakeProvider.named("a").parameter("weight", "-1"),
                FakeProvider.named("b").parameter("weight", "-2"));
        Picker<FakeService> picker = new LeastActiveLoadBalance(ScriptedRandom::new).picker(list, CONSUMER, "call", stats);
        assertThatThrownBy(() -> picker.pick(call)).isInstanceOf(RpcException.class).hasMessageContaining("every provider is left out");
    }

    // ------------------------------------------------------------------ shortestresponse

    @Test
    void shortestResponse_failuresCountAgainstAProvider_throughItsSuccessRate() {
        List<FakeProvider<FakeService>> providers = FakeProviders.of(FakeService.class, 2);
        ticker.set(TimeUnit.SECONDS.toNanos(100));
        latency(providers.get(0), 2 * MS, true, 1);
        latency(providers.get(0), 2 * MS, false, 1);   // 2 ms at 50 %: 4 ms expected
        latency(providers.get(1), 3 * MS, true, 2);
        ScriptedRandom random = ScriptedRandom.draws();
        Picker<FakeService> picker = new ShortestResponseLoadBalance(() -> random).picker(invokers(providers), CONSUMER, "call", stats);
        assertThat(picks(picker, call, 2)).containsExactly("b", "b");
    }

    @Test
    void shortestResponse_scoreIsExpectedLatencyTimesCallsInFlightPlusOne() {
        List<FakeProvider<FakeService>> providers = FakeProviders.of(FakeService.class, 2);
        ticker.set(TimeUnit.SECONDS.toNanos(100));
        latency(providers.get(0), 2 * MS, true, 1);
        latency(providers.get(1), 5 * MS, true, 1);
        ScriptedRandom random = ScriptedRandom.draws();
        Picker<FakeService> picker = new ShortestResponseLoadBalance(() -> random).picker(invokers(providers), CONSUMER, "call", stats);
        assertThat(picks(picker, call, 1)).containsExactly("a");
        stats.get(providers.get(0)).startCall();
        stats.get(providers.get(0)).startCall();   // 2 ms x 3 = 6 ms > 5 ms x 1
        assertThat(picks(picker, call, 1)).containsExactly("b");
    }

    @Test
    void shortestResponse_aProviderWithoutSamples_isTried_unlessItsWeightIsZero() {
        List<FakeProvider<FakeService>> providers = FakeProviders.withWeights(FakeService.class, 100, 100, 0);
        ticker.set(TimeUnit.SECONDS.toNanos(100));
        latency(providers.get(0), 2 * MS, true, 1);
        ScriptedRandom random = ScriptedRandom.draws();
        Picker<FakeService> picker = new ShortestResponseLoadBalance(() -> random).picker(invokers(providers), CONSUMER, "call", stats);
        assertThat(picks(picker, call, 1)).containsExactly("b");
        assertThat(stats.get(providers.get(1)).isLatencyTimed()).isTrue();
        assertThat(stats.get(providers.get(2)).isLatencyTimed()).isTrue();
    }

    // ------------------------------------------------------------------ p2c

    @Test
    void p2c_equalWeights_secondCandidateSkipsTheFirst_andTheLowerScoreWins() {
        List<FakeProvider<FakeService>> providers = FakeProviders.of(FakeService.class, 3);
        ticker.set(TimeUnit.SECONDS.toNanos(100));
        latency(providers.get(0), 10 * MS, true, 1);
        latency(providers.get(1), 2 * MS, true, 1);
        latency(providers.get(2), 5 * MS, true, 1);
        // first candidate from nextInt(3), second from nextInt(2) skipping the first
        ScriptedRandom script = ScriptedRandom.draws(0, 0, 0, 1, 2, 0, 2, 1);
        Picker<FakeService> picker = new P2cLoadBalance(() -> script).picker(invokers(providers), CONSUMER, "call", stats);
        // (a, b) -> b; (a, c) -> c; (c, a) -> c; (c, b) -> b
        assertThat(picks(picker, call, 4)).containsExactly("b", "c", "c", "b");
        assertThat(script.bounds()).containsExactly(3L, 2L, 3L, 2L, 3L, 2L, 3L, 2L);
    }

    @Test
    void p2c_withoutHistory_borrowsTheOthersEstimate_soCallsInFlightDecide_tiesKeepTheFirst() {
        List<FakeProvider<FakeService>> providers = FakeProviders.of(FakeService.class, 2);
        ticker.set(TimeUnit.SECONDS.toNanos(100));
        latency(providers.get(1), 50 * MS, true, 1);
        ScriptedRandom script = ScriptedRandom.draws(0, 0, 0, 0, 0, 0, 0, 0);
        Picker<FakeService> picker = new P2cLoadBalance(() -> script).picker(invokers(providers), CONSUMER, "call", stats);
        assertThat(picks(picker, call, 2)).containsExactly("a", "a");   // equal scores: the first candidate
        stats.get(providers.get(0)).startCall();
        assertThat(picks(picker, call, 2)).containsExactly("b", "b");   // a has one in flight, same estimate
        ScriptedRandom none = ScriptedRandom.draws(0, 0);
        List<FakeProvider<FakeService>> fresh = FakeProviders.named(FakeService.class, "x", "y");
        Picker<FakeService> neither = new P2cLoadBalance(() -> none).picker(invokers(fresh), CONSUMER, "call", stats);
        assertThat(picks(neither, call, 1)).containsExactly("x");
    }

    @Test
    void p2c_unequalWeights_drawsTheSecondCandidateBelowTheOtherWeights_skippingTheFirstsInterval() {
        List<FakeProvider<FakeService>> providers = FakeProviders.withWeights(FakeService.class, 100, 0, 300, 100);
        ticker.set(TimeUnit.SECONDS.toNanos(100));
        latency(providers.get(0), 1 * MS, true, 1);
        latency(providers.get(2), 9 * MS, true, 1);
        latency(providers.get(3), 5 * MS, true, 1);
        // c (150 of 500), then 150 of the other 200 lies past c's interval: d; a (0 of 500), then 99 of 400: c
        ScriptedRandom random = ScriptedRandom.draws(150, 150, 0, 99);
        Picker<FakeService> picker = new P2cLoadBalance(() -> random).picker(invokers(providers), CONSUMER, "call", stats);
        assertThat(picks(picker, call, 2)).containsExactly("d", "a");
        assertThat(random.bounds()).containsExactly(500L, 200L, 500L, 400L);
    }

    @Test
    void p2c_oneEligibleProvider_isPickedWithOneDraw() {
        FakeProvider<FakeService> bad = FakeProvider.named("bad").parameter("weight", "-1");
        FakeProvider<FakeService> good = FakeProvider.named("good");
        ScriptedRandom random = ScriptedRandom.draws(99);
        Picker<FakeService> picker = new P2cLoadBalance(() -> random).picker(List.of(bad, good), CONSUMER, "call", stats);
        assertThat(picks(picker, call, 1)).containsExactly("good");
        assertThat(random.remaining()).isZero();
        Picker<FakeService> none = new P2cLoadBalance(ScriptedRandom::new).picker(List.of(bad, FakeProvider.named("worse")
                .parameter("weight", "x")), CONSUMER, "call", stats);
        assertThatThrownBy(() -> none.pick(call)).isInstanceOf(RpcException.class).hasMessageContaining("every provider is left out");
    }

    @Test
    void p2c_decayKey_isReadAtMethodLevel_andRejectedOutOfRange() {
        List<Invoker<FakeService>> list = invokers(FakeProviders.of(FakeService.class, 2));
        URL url = CONSUMER.addParameter("call.p2c.decay", "0");
        assertThatThrownBy(() -> new P2cLoadBalance().picker(list, url, "call", stats))
                .hasMessage("call.p2c.decay: 0 (expected: an integer from 1 to 31536000000) in consumer URL " + url);
        assertThatThrownBy(() -> new P2cLoadBalance().picker(List.of(), url, "call", stats)).isInstanceOf(IllegalArgumentException.class);
        assertThat(new P2cLoadBalance().picker(list, CONSUMER.addParameter("p2c.decay", "31536000000"), "call", stats)).isNotNull();
    }
}
