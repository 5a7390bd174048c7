package dev.weft.rpc.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Supplier;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * Every benchmark measures real work: each fixture is set up exactly as JMH
 * does and called outside JMH, and the answers are checked (JMH itself never runs in the build).
 */
class BenchmarkSanityTest {

    @ParameterizedTest
    @CsvSource({"random,equal", "random,mixed", "random,warming", "roundrobin,equal", "roundrobin,mixed",
            "roundrobin,warming", "leastactive,equal", "leastactive,warming", "shortestresponse,equal", "consistenthash,equal",
            "random,settled", "roundrobin,settled"})
    void dubboBalancer_picksAmongAllInvokers_andSpreadsTheLoad(String balancer, String weights) {
        LoadBalanceBenchmark benchmark = new LoadBalanceBenchmark();
        LoadBalanceBenchmark.DubboState state = new LoadBalanceBenchmark.DubboState();
        state.balancer = balancer;
        state.invokers = 10;
        state.weights = weights;
        state.setUp();

        // 64 distinct arguments spread even consistent hashing over several providers.
        assertThat(distinctPicks(state.list, () -> benchmark.dubbo(state))).as("providers picked by %s", balancer)
                .isGreaterThanOrEqualTo(4);
    }

    @ParameterizedTest
    @CsvSource({"random,equal", "random,mixed", "random,warming", "roundrobin,equal", "roundrobin,mixed",
            "roundrobin,warming", "leastactive,equal", "leastactive,warming", "shortestresponse,equal", "consistenthash,equal",
            "p2c,equal", "p2c,mixed", "p2c,warming", "random,settled", "consistenthash,settled"})
    void weftBalancer_picksAmongAllInvokers_andSpreadsTheLoad(String balancer, String weights) {
        LoadBalanceBenchmark benchmark = new LoadBalanceBenchmark();
        LoadBalanceBenchmark.WeftState state = new LoadBalanceBenchmark.WeftState();
        state.balancer = balancer;
        state.invokers = 10;
        state.weights = weights;
        state.setUp();

        assertThat(distinctPicks(state.list, () -> benchmark.weft(state))).as("providers picked by %s", balancer)
                .isGreaterThanOrEqualTo(4);
    }

    @Test
    void pickFloor_picksAmongAllInvokers_andSpreadsTheLoad() {
        PickFloorBenchmark benchmark = new PickFloorBenchmark();
        PickFloorBenchmark.FloorState state = new PickFloorBenchmark.FloorState();
        state.invokers = 10;
        state.setUp();

        assertThat(distinctPicks(state.list, () -> benchmark.bareRandomPick(state))).isEqualTo(10);
    }

    /** Picks 2,000 times, checks every pick is one of {@code list}, and returns how many distinct ones came up. */
    private static int distinctPicks(List<?> list, Supplier<Object> pick) {
        Set<Object> picked = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            Object one = pick.get();
            assertThat(list.contains(one)).as("%s is one of the invokers", one).isTrue();
            picked.add(one);
        }
        return picked.size();
    }

    @Test
    void weftCluster_answersFromAProvider() {
        ClusterBenchmark benchmark = new ClusterBenchmark();
        ClusterBenchmark.WeftState state = new ClusterBenchmark.WeftState();
        state.invokers = 10;
        state.weights = "mixed";
        state.setUp();

        assertThat((String) benchmark.weft(state)).startsWith("Hello, provider-");
    }

    @Test
    void weftMockOverhead_comparesTheWrappedAndTheBareFailoverInvoker() {
        MockOverheadBenchmark benchmark = new MockOverheadBenchmark();
        MockOverheadBenchmark.WeftState state = new MockOverheadBenchmark.WeftState();
        state.setUp();

        assertThat(state.wrapped).isInstanceOf(dev.weft.rpc.mock.MockClusterInvoker.class);
        assertThat(state.bare).isNotInstanceOf(dev.weft.rpc.mock.MockClusterInvoker.class);
        assertThat((String) benchmark.weftWrapped(state)).startsWith("Hello, provider-");
        assertThat((String) benchmark.weftBare(state)).startsWith("Hello, provider-");
    }

    @Test
    void sharedBalancer_picksFromEachServiceInTurn_onBothSides() {
        SharedBalancerBenchmark benchmark = new SharedBalancerBenchmark();
        SharedBalancerBenchmark.WeftState weft = new SharedBalancerBenchmark.WeftState();
        weft.balancer = "consistenthash";
        weft.services = 8;
        weft.setUp();
        SharedBalancerBenchmark.DubboState dubbo = new SharedBalancerBenchmark.DubboState();
        dubbo.balancer = "consistenthash";
        dubbo.services = 8;
        dubbo.setUp();
        for (int call = 0; call < 16; call++) {
            java.util.List<?> expectedWeft = weft.lists[call % 8];
            assertThat(benchmark.weft(weft)).isIn(expectedWeft);
            java.util.List<?> expectedDubbo = dubbo.lists[call % 8];
            assertThat(benchmark.dubbo(dubbo)).isIn(expectedDubbo);
        }
    }

    @Test
    void weftBreakdown_listsEveryProvider_andRecordsTheCall() {
        WeftBreakdownBenchmark benchmark = new WeftBreakdownBenchmark();
        benchmark.invokers = 10;
        benchmark.setUp();

        assertThat((java.util.List<?>) benchmark.directoryList()).hasSize(10);
        dev.weft.rpc.loadbalance.InvokerStats counted = (dev.weft.rpc.loadbalance.InvokerStats) benchmark.statsCounted();
        assertThat(counted.inFlight()).isZero();
        assertThat(counted.isLatencyTimed()).isFalse();
        dev.weft.rpc.loadbalance.InvokerStats timed = (dev.weft.rpc.loadbalance.InvokerStats) benchmark.statsTimed();
        assertThat(timed.inFlight()).isZero();
        assertThat(timed.isLatencyTimed()).isTrue();
        assertThat(timed.recentSuccesses(System.nanoTime())).isPositive();
    }

    @Test
    void dubboCluster_answersFromAProvider_directAndThroughTheProxy() {
        ClusterBenchmark benchmark = new ClusterBenchmark();
        ClusterBenchmark.DubboState state = new ClusterBenchmark.DubboState();
        state.invokers = 10;
        state.weights = "warming";
        state.setUp();

        assertThat((String) benchmark.dubbo(state)).startsWith("Hello, provider-");
        assertThat(benchmark.dubboViaProxy(state)).startsWith("Hello, provider-");
    }

    @Test
    void dubboMockOverhead_comparesTheWrappedAndTheBareFailoverInvoker() {
        MockOverheadBenchmark benchmark = new MockOverheadBenchmark();
        MockOverheadBenchmark.DubboState state = new MockOverheadBenchmark.DubboState();
        state.setUp();

        assertThat(state.wrapped.getClass().getSimpleName()).isEqualTo("MockClusterInvoker");
        assertThat(state.bare.getClass().getSimpleName()).isEqualTo("FailoverClusterInvoker");
        assertThat((String) benchmark.dubboWrapped(state)).startsWith("Hello, provider-");
        assertThat((String) benchmark.dubboBare(state)).startsWith("Hello, provider-");
    }

    @Test
    void pipelinesAndProxies_answerLikeTheImplementation_onBothFrameworks() {
        PipelineBenchmark pipeline = new PipelineBenchmark();
        PipelineBenchmark.Calls calls = new PipelineBenchmark.Calls();
        calls.setUp();
        PipelineBenchmark.DubboState state = new PipelineBenchmark.DubboState();
        state.invokers = 10;
        state.setUp();
        assertThat(pipeline.dubbo(state, calls)).isEqualTo("Hello, user-0");
        assertThat(pipeline.direct(calls)).isEqualTo("Hello, user-1");
        PipelineBenchmark.WeftState weft = new PipelineBenchmark.WeftState();
        weft.invokers = 10;
        weft.setUp();
        assertThat(pipeline.weft(weft, calls)).isEqualTo("Hello, user-2");

        ProxyBenchmark proxies = new ProxyBenchmark();
        proxies.setUp();
        assertThat(proxies.dubboJavassist()).isEqualTo("Hello, user-0");
        assertThat(proxies.dubboJdk()).isEqualTo("Hello, user-1");
        assertThat(proxies.direct()).isEqualTo("Hello, user-2");
        assertThat(proxies.weftJavassist()).isEqualTo("Hello, user-3");
        assertThat(proxies.weftJdk()).isEqualTo("Hello, user-4");
    }

    @Test
    void extensionAndAdaptive_returnTheNamedExtension_onBothFrameworks() {
        ExtensionBenchmark extension = new ExtensionBenchmark();
        extension.setUp();
        assertThat(extension.dubboGetExtension()).isInstanceOf(DubboGreeting.Hi.class);
        assertThat(extension.dubboLoaderThenGetExtension()).isSameAs(extension.dubboGetExtension());
        assertThat(extension.weftGetExtension()).isInstanceOf(WeftGreeting.Hi.class);
        assertThat(extension.weftLoaderThenGetExtension()).isSameAs(extension.weftGetExtension());

        AdaptiveBenchmark adaptive = new AdaptiveBenchmark();
        adaptive.setUp();
        assertThat(adaptive.dubbo()).isEqualTo("Hi, user-7");
        assertThat(adaptive.weft()).isEqualTo("Hi, user-7");
    }
}
