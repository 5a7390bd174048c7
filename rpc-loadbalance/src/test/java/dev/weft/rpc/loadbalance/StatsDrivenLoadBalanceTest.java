package dev.weft.rpc.loadbalance;

import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.FakeTicker;
import static dev.weft.rpc.loadbalance.Fixtures.provider;
import static dev.weft.rpc.loadbalance.Fixtures.ticker;
import static dev.weft.rpc.loadbalance.Fixtures.director;
import static dev.weft.rpc.loadbalance.Fixtures.stats;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static dev.weft.rpc.loadbalance.Fixtures.CONSUMER;
import static dev.weft.rpc.loadbalance.Fixtures.call;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** leastactive, shortestresponse and p2c against statistics driven by a fake clock. */
class StatsDrivenLoadBalanceTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    private final FakeTicker time = ticker();
    private final ExtensionDirector director = director(time);
    private final CallStats stats = CallStats.of(director);
    private final Random seeded = new Random(7);

    /** Invokers with the given weights (negative: none). */
    private static List<Invoker<FakeService>> invokers(int... weights) {
        return Fixtures.weighted(weights);
    }

    /** {@code balance}, reading this test's statistics and clock. */
    private <B extends AbstractLoadBalance> B on(B balance) {
        balance.setExtensionDirector(director);
        return balance;
    }

    private void inFlight(Invoker<?> invoker, int calls) {
        for (int i = 0; i < calls; i++) {
            stats.get(invoker).startCall();
        }
    }

    private void completed(Invoker<?> invoker, long latency, boolean success, int times) {
        InvokerStats counters = stats.get(invoker);
        counters.timeLatency();
        for (int i = 0; i < times; i++) {
            long started = counters.startCall();
            time.advance(latency, TimeUnit.NANOSECONDS);
            counters.endCall(started, success);
        }
    }

    // ------------------------------------------------------------------ leastactive

    @Test
    void leastActive_picksTheInvokerWithFewestCallsInFlight() {
        List<Invoker<FakeService>> list = invokers(-1, -1, -1);
        inFlight(list.get(0), 3);
        inFlight(list.get(1), 1);
        inFlight(list.get(2), 2);
        LeastActiveLoadBalance balance = on(new LeastActiveLoadBalance(() -> seeded));
        assertThat(Fixtures.counts(balance, list, CONSUMER, call("m"), 100).get(list.get(1))).isEqualTo(100);
    }

    @Test
    void leastActive_tiesAreBrokenByWeight_withinSeededBounds() {
        List<Invoker<FakeService>> list = invokers(100, 300, 100);
        inFlight(list.get(2), 1);
        LeastActiveLoadBalance balance = on(new LeastActiveLoadBalance(() -> seeded));
        Map<Invoker<FakeService>, Integer> counts = Fixtures.counts(balance, list, CONSUMER, call("m"), 40_000);
        assertThat(counts.get(list.get(2))).isZero();
        // 1:3 among the two idle invokers; 1 degree of freedom, p = 0.001
        assertThat(Fixtures.chiSquare(new int[] {counts.get(list.get(0)), counts.get(list.get(1))}, new double[] {0.25, 0.75})).isLessThan(10.83);
    }

    @Test
    void leastActive_equalTies_areUniform_andWeightZeroIsSkipped() {
        List<Invoker<FakeService>> list = invokers(0, -1, -1, -1);
        inFlight(list.get(1), 2);
        LeastActiveLoadBalance balance = on(new LeastActiveLoadBalance(() -> seeded));
        Map<Invoker<FakeService>, Integer> counts = Fixtures.counts(balance, list, CONSUMER, call("m"), 20_000);
        assertThat(counts.get(list.get(0))).as("weight 0 with no calls in flight").isZero();
        assertThat(counts.get(list.get(1))).isZero();
        assertThat(counts.get(list.get(2))).isBetween(9_600, 10_400);
    }

    // ------------------------------------------------------------------ shortestresponse

    /** Calls of {@code invoker} as the cluster makes them: timed only if a balancer asked for it. */
    private void served(Invoker<?> invoker, long latency, int times) {
        InvokerStats counters = stats.get(invoker);
        for (int i = 0; i < times; i++) {
            long started = counters.startCall();
            time.advance(latency, TimeUnit.NANOSECONDS);
            counters.endCall(started, true);
        }
    }

    @Test
    void shortestResponse_aSlowProviderThatServedAlone_isNeverPickedOverAnUntriedOne() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        Invoker<FakeService> slow = list.get(0);
        ShortestResponseLoadBalance balance = on(new ShortestResponseLoadBalance(() -> seeded));
        // Alone in the directory: the cluster asks for a picker of one, then makes the calls.
        Picker<FakeService> alone = balance.picker(List.of(slow), CONSUMER, "m", stats);
        assertThat(alone.pick(call("m"))).isSameAs(slow);
        served(slow, 400 * MS, 3);

        Picker<FakeService> both = balance.picker(list, CONSUMER, "m", stats);
        for (int i = 0; i < 200; i++) {
            assertThat(both.pick(call("m"))).isSameAs(list.get(1));
        }
        assertThat(Fixtures.counts(balance, list, CONSUMER, call("m"), 200).get(list.get(1))).isEqualTo(200);
    }

    @Test
    void p2c_aSlowProviderThatServedAlone_hasItsHistory_whenASecondArrives() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        P2cLoadBalance balance = on(new P2cLoadBalance(() -> seeded));
        assertThat(balance.select(List.of(list.get(0)), CONSUMER, call("m"))).isSameAs(list.get(0));
        served(list.get(0), 400 * MS, 3);
        assertThat(stats.get(list.get(0)).expectedLatencyNanos(time.read())).isEqualTo(400 * MS);
    }

    @Test
    void shortestResponse_prefersLowLatencyTimesInFlight() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        completed(list.get(0), 10 * MS, true, 5);
        completed(list.get(1), 30 * MS, true, 5);
        ShortestResponseLoadBalance balance = on(new ShortestResponseLoadBalance(() -> seeded));
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(0));
        // 10 ms x (3 + 1) = 40 > 30 ms x (0 + 1)
        inFlight(list.get(0), 3);
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(1));
    }

    @Test
    void shortestResponse_triesInvokersWithoutSamples_insteadOfStarvingThem() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        completed(list.get(0), MS / 1000, true, 10);
        ShortestResponseLoadBalance balance = on(new ShortestResponseLoadBalance(() -> seeded));
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(1));
    }

    @Test
    void shortestResponse_failuresCountAgainstAFastFailingInvoker() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        completed(list.get(0), 10 * MS, true, 10);
        completed(list.get(1), MS, true, 1);
        completed(list.get(1), MS / 10, false, 19);
        ShortestResponseLoadBalance balance = on(new ShortestResponseLoadBalance(() -> seeded));
        // fast-failing: 1 ms average at a 5% success rate = 20 ms per success, worse than 10 ms
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(0));
    }

    @Test
    void shortestResponse_oldSamplesExpire_soASlowInvokerIsProbedAgain() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        completed(list.get(0), 10 * MS, true, 10);
        completed(list.get(1), 900 * MS, true, 10);
        ShortestResponseLoadBalance balance = on(new ShortestResponseLoadBalance(() -> seeded));
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(0));
        time.advance(TimeUnit.NANOSECONDS.toMillis(2 * InvokerStats.BUCKET_NANOS), TimeUnit.MILLISECONDS);
        completed(list.get(0), 10 * MS, true, 1);
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(1));
    }

    // ------------------------------------------------------------------ p2c

    @Test
    void p2c_twoInvokers_alwaysPicksTheLowerPeakEwmaTimesInFlight() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        completed(list.get(0), 50 * MS, true, 1);
        completed(list.get(1), 5 * MS, true, 1);
        P2cLoadBalance balance = on(new P2cLoadBalance(() -> seeded));
        assertThat(Fixtures.counts(balance, list, CONSUMER, call("m"), 100).get(list.get(1))).isEqualTo(100);
        inFlight(list.get(1), 10);
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(0));
    }

    @Test
    void p2c_neverPicksTheWorstOfThree_andPicksEachCandidatePairDistinctly() {
        List<Invoker<FakeService>> list = invokers(-1, -1, -1);
        completed(list.get(0), MS, true, 1);
        completed(list.get(1), 2 * MS, true, 1);
        completed(list.get(2), 3 * MS, true, 1);
        P2cLoadBalance balance = on(new P2cLoadBalance(() -> seeded));
        Map<Invoker<FakeService>, Integer> counts = Fixtures.counts(balance, list, CONSUMER, call("m"), 30_000);
        // pairs {0,1},{0,2} go to 0, {1,2} to 1: shares 2/3 and 1/3
        assertThat(counts.get(list.get(2))).isZero();
        assertThat(counts.get(list.get(0))).isBetween(19_500, 20_500);
    }

    @Test
    void p2c_invokerWithoutHistory_isNeutral_inFlightDecides() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        completed(list.get(0), 100 * MS, true, 1);
        P2cLoadBalance balance = on(new P2cLoadBalance(() -> seeded));
        inFlight(list.get(0), 1);
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(1));
        inFlight(list.get(1), 2);
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(0));
    }

    @Test
    void p2c_decayKey_controlsHowFastASlowInvokerIsForgiven() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        completed(list.get(0), 100 * MS, true, 1);
        completed(list.get(1), 10 * MS, true, 1);
        P2cLoadBalance balance = on(new P2cLoadBalance(() -> seeded));
        URL fastDecay = CONSUMER.addParameter(P2cLoadBalance.DECAY_KEY, 1000);
        assertThat(balance.select(list, fastDecay, call("m"))).isSameAs(list.get(1));
        // 3 s later with a 1 s constant: 100 ms decays to ~5 ms while the other was just refreshed
        time.advance(3_000, TimeUnit.MILLISECONDS);
        completed(list.get(1), 10 * MS, true, 1);
        assertThat(balance.select(list, fastDecay, call("m"))).isSameAs(list.get(0));
        // with the default 10 s constant the slow one is still ~74 ms
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(1));
    }

    /**
     * 500 calls per second of simulated time, 1 ms each, to two providers; the second fails every
     * call for 5 s (a paused provider), then answers again. Its penalty is bounded and decays, so
     * it is picked again within a few seconds, and soon takes about its share.
     */
    @Test
    void p2c_aProviderThatFailedForFiveSeconds_isPickedAgainWithinSecondsOfRecovering() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        P2cLoadBalance balance = on(new P2cLoadBalance(() -> seeded));
        Invoker<FakeService> paused = list.get(1);
        completed(list.get(0), MS, true, 1);
        completed(paused, MS, true, 1);
        long start = time.read();
        long pauseEnds = start + TimeUnit.SECONDS.toNanos(10);
        long firstPickAfter = -1;
        int[] picksPerSecondAfter = new int[20];
        for (int call = 0; call < 500 * 30; call++) {
            long now = start + call * 2 * MS;
            time.set(now);
            Invoker<FakeService> picked = balance.select(list, CONSUMER, call("m"));
            boolean failing = picked == paused && now >= start + TimeUnit.SECONDS.toNanos(5) && now < pauseEnds;
            InvokerStats counters = stats.get(picked);
            long started = counters.startCall();
            time.advance(MS, TimeUnit.NANOSECONDS);
            counters.endCall(started, !failing);
            if (picked == paused && now >= pauseEnds) {
                int second = (int) ((now - pauseEnds) / TimeUnit.SECONDS.toNanos(1));
                if (firstPickAfter < 0) {
                    firstPickAfter = now - pauseEnds;
                }
                if (second < picksPerSecondAfter.length) {
                    picksPerSecondAfter[second]++;
                }
            }
            assertThat(stats.get(paused).failurePenaltyNanos(time.read()))
                    .isLessThanOrEqualTo((double) TimeUnit.MILLISECONDS.toNanos(InvokerStats.MAX_FAILURE_PENALTY_MILLIS));
        }
        assertThat(firstPickAfter).as("picked again after the pause").isBetween(0L, TimeUnit.SECONDS.toNanos(8));
        // ten seconds on, it takes a fair part of the 500 calls a second again
        for (int second = 10; second < 20; second++) {
            assertThat(picksPerSecondAfter[second]).as("picks in second %d after the pause", second).isGreaterThan(100);
        }
    }

    @Test
    void p2c_errorsRaiseTheEstimate() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        completed(list.get(0), 5 * MS, true, 1);
        completed(list.get(1), 8 * MS, true, 1);
        P2cLoadBalance balance = on(new P2cLoadBalance(() -> seeded));
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(0));
        completed(list.get(0), MS / 100, false, 1);
        assertThat(balance.select(list, CONSUMER, call("m"))).isSameAs(list.get(1));
    }

    @Test
    void p2c_badDecay_failsNamingTheKey() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        URL bad = CONSUMER.addParameter(P2cLoadBalance.DECAY_KEY, 0);
        assertThatThrownBy(() -> new P2cLoadBalance().select(list, bad, call("m")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("p2c.decay: 0 (expected: an integer from 1 to 31536000000) in consumer URL weft://consumer");
    }

    @Test
    void p2c_weightZero_isNeverDrawn() {
        List<Invoker<FakeService>> list = invokers(0, 100, 100);
        P2cLoadBalance balance = on(new P2cLoadBalance(() -> seeded));
        List<Invoker<FakeService>> picked = new ArrayList<>();
        for (int i = 0; i < 1000; i++) {
            picked.add(balance.select(list, CONSUMER, call("m")));
        }
        assertThat(picked).doesNotContain(list.get(0));
    }

    // ------------------------------------------------------------------ what is recorded, and for whom

    @Test
    void inFlight_isCountedFromTheFirstCall_whateverTheBalancer_andLatencyOnlyOnceAPickerAsks() {
        Invoker<FakeService> busy = provider("busy", "");
        for (int i = 0; i < 3; i++) {
            stats.get(busy).startCall();
        }
        assertThat(stats.get(busy).inFlight()).isEqualTo(3);
        assertThat(stats.get(busy).isLatencyTimed()).isFalse();
        Invoker<FakeService> idle = provider("idle", "");
        List<Invoker<FakeService>> both = List.of(busy, idle);
        for (LoadBalance balance : List.of(new RandomLoadBalance(), new RoundRobinLoadBalance(), new LeastActiveLoadBalance(),
                new ConsistentHashLoadBalance())) {
            balance.picker(both, CONSUMER, "m", stats);
        }
        assertThat(stats.get(busy).isLatencyTimed()).as("no latency reader built a picker").isFalse();
        Picker<FakeService> leastActive = new LeastActiveLoadBalance(() -> seeded).picker(both, CONSUMER, "m", stats);
        for (int i = 0; i < 100; i++) {
            assertThat(leastActive.pick(call("m"))).isSameAs(idle);
        }
        new P2cLoadBalance().picker(both, CONSUMER, "m", stats);
        assertThat(stats.get(busy).isLatencyTimed()).isTrue();
        assertThat(stats.get(idle).isLatencyTimed()).isTrue();
    }

    @Test
    void leastActive_dubboVector_weights1_9_6_actives0_0_1_neverPicksTheBusyOne() {
        List<Invoker<FakeService>> list = invokers(1, 9, 6);
        inFlight(list.get(2), 1);
        Picker<FakeService> picker = new LeastActiveLoadBalance(() -> seeded).picker(list, CONSUMER, "m", stats);
        int[] counts = new int[3];
        for (int i = 0; i < 10_000; i++) {
            counts[list.indexOf(picker.pick(call("m")))]++;
        }
        assertThat(counts[2]).isZero();
        // 1:9 between the idle ones; 1 degree of freedom, p = 0.001
        assertThat(Fixtures.chiSquare(new int[] {counts[0], counts[1]}, new double[] {0.1, 0.9})).isLessThan(10.83);
    }

    @Test
    void shortestResponse_slowBusyProvider_isAvoided_evenForCallsStartedBeforeThePickerExisted() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        completed(list.get(0), 50 * MS, true, 3);
        completed(list.get(1), 50 * MS, true, 3);
        inFlight(list.get(0), 4);
        Picker<FakeService> picker = new ShortestResponseLoadBalance(() -> seeded).picker(list, CONSUMER, "m", stats);
        for (int i = 0; i < 100; i++) {
            assertThat(picker.pick(call("m"))).isSameAs(list.get(1));
        }
    }

    @Test
    void directors_neverSeeEachOthersCounts() {
        Invoker<FakeService> shared = provider("shared", "");
        CallStats other = stats(ticker());
        stats.get(shared).startCall();
        assertThat(stats.get(shared).inFlight()).isEqualTo(1);
        assertThat(other.get(shared).inFlight()).isZero();
        assertThat(CallStats.of(director)).isSameAs(stats);
    }

    @Test
    void shortestResponse_learnsLatency_fromCallsRecordedWithStartAndEndCall() {
        List<Invoker<FakeService>> list = invokers(-1, -1);
        ShortestResponseLoadBalance balance = on(new ShortestResponseLoadBalance(() -> seeded));
        // each pick is followed by a call, timed because the balancer asked for latency
        for (int i = 0; i < 20; i++) {
            Invoker<FakeService> chosen = balance.select(list, CONSUMER, call("m"));
            InvokerStats counters = stats.get(chosen);
            long started = counters.startCall();
            time.advance(chosen == list.get(0) ? 10 * MS : MS, TimeUnit.NANOSECONDS);
            counters.endCall(started, true);
        }
        assertThat(Fixtures.counts(balance, list, CONSUMER, call("m"), 100).get(list.get(1))).isEqualTo(100);
    }
}
