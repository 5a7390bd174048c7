package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.CallStats;
import dev.weft.rpc.loadbalance.InvokerStats;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.loadbalance.MethodSettings;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.HeldCalls;
import dev.weft.rpc.testing.Invocations;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What an extension author writing a cluster strategy gets ({@link AbstractCluster},
 * {@link AbstractClusterInvoker}, {@link MethodPlan}), sticky selection, directory states, and the
 * call statistics every strategy records.
 */
class CustomStrategyAndStickyTest extends FakeServiceClusterTest {

    private final RpcInvocation run = Invocations.of(FakeService.class, "run");

    private Invoker<FakeService> join(String cluster, Directory<FakeService> directory) {
        return director.getExtensionLoader(Cluster.class).getExtension(cluster).join(directory);
    }

    /** A strategy that calls one provider and answers what it saw: its plan, its settings, the provider. */
    static final class ReportingCluster extends AbstractCluster {
        @Override
        protected <T> AbstractClusterInvoker<T> doJoin(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
            return new ReportingInvoker<>(directory, loadBalances);
        }
    }

    static final class ReportingInvoker<T> extends AbstractClusterInvoker<T> {
        ReportingInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
            super(directory, loadBalances);
        }

        @Override
        protected int defaultRetries() {
            return 7;
        }

        @Override
        protected Object resolve(MethodSettings settings) {
            return settings.getInt("report.limit", 3, 1, 10);
        }

        @Override
        protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
            List<Invoker<T>> invokers = listCandidates(invocation, plan);
            Invoker<T> chosen = select(invocation, invokers, null, plan);
            Result answer = invokeProvider(chosen, invocation);
            return RpcResult.of(plan + " | limit " + plan.<Integer>strategySettings() + " | service limit " + this.<Integer>serviceSettings()
                    + " | retries " + plan.retries() + " | sticky " + plan.sticky() + " | check " + plan.availableCheck()
                    + " | " + callSite(invocation) + " | " + describeAll(invokers) + " -> " + describe(chosen) + " said " + answer.getValue());
        }
    }

    @Test
    void customStrategy_seesItsResolvedPlan_perMethod_withHelpersForMessages() {
        ReportingCluster cluster = new ReportingCluster();
        cluster.setExtensionDirector(director);
        String query = "loadbalance=roundrobin&report.limit=5&call.report.limit=9&run.retries=1&run.sticky=true";
        Invoker<FakeService> invoker = cluster.join(directory(query, List.of(provider("a"), provider("b"))));
        assertThat(invoker.invoke(call).getValue()).isEqualTo("MethodPlan[MethodSettings[call, " + consumer(query)
                + "], RoundRobinLoadBalance, retries=7] | limit 9 | service limit 5 | retries 7 | sticky false | check true"
                + " | method call of service " + SERVICE + " | [a:20880, b:20880] -> a:20880 said a");
        assertThat((String) invoker.invoke(run).getValue()).contains("limit 5 | service limit 5 | retries 1 | sticky true",
                "method run of service", "-> a:20880 said a");
        assertThat(invoker).hasToString("ReportingInvoker[" + SERVICE + ", " + consumer(query) + "]");
    }

    @Test
    void customStrategy_badKey_vetoesJoinAndSetUrl_theLastGoodStateKeepsServing() {
        ReportingCluster cluster = new ReportingCluster();
        cluster.setExtensionDirector(director);
        assertThatThrownBy(() -> cluster.join(directory("run.report.limit=11", List.of(provider("a")))))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("run.report.limit: 11 (expected: an integer from 1 to 10) in consumer URL " + consumer("run.report.limit=11"));
        DynamicDirectory<FakeService> directory = directory("report.limit=2", List.of(provider("a")));
        Invoker<FakeService> invoker = cluster.join(directory);
        assertThatThrownBy(() -> directory.setUrl(consumer("report.limit=0"))).hasMessageStartingWith("report.limit: 0 (expected:");
        assertThatThrownBy(() -> directory.setUrl(consumer("loadbalance=nope"))).hasMessageStartingWith("loadbalance: nope (expected: a LoadBalance extension;");
        assertThatThrownBy(() -> directory.setUrl(consumer("retries=x"))).hasMessageStartingWith("retries: x (expected: an integer) in");
        assertThat((String) invoker.invoke(call).getValue()).contains("limit 2");
        assertThat(directory.getUrl()).isEqualTo(consumer("report.limit=2"));
        directory.setUrl(consumer("report.limit=4&retries=-3&cluster.availablecheck=false"));
        assertThat((String) invoker.invoke(call).getValue()).contains("limit 4", "retries 0", "check false");
    }

    @Test
    void customStrategy_overAPlainDirectory_seesItsChangesFromTheNextCall() {
        List<Invoker<FakeService>> members = new ArrayList<>(List.of(provider("a")));
        URL[] url = {consumer("report.limit=2")};
        Directory<FakeService> plain = new Directory<>() {
            @Override
            public Class<FakeService> getInterface() {
                return FakeService.class;
            }

            @Override
            public List<Invoker<FakeService>> list(Invocation invocation) {
                return List.copyOf(members);
            }

            @Override
            public URL getUrl() {
                return url[0];
            }

            @Override
            public boolean isAvailable() {
                return !members.isEmpty();
            }

            @Override
            public void destroy() {
            }
        };
        ReportingCluster cluster = new ReportingCluster();
        cluster.setExtensionDirector(director);
        Invoker<FakeService> invoker = cluster.join(plain);
        assertThat((String) invoker.invoke(call).getValue()).contains("limit 2", "[a:20880] -> a:20880");
        members.add(provider("b"));
        url[0] = consumer("report.limit=6&loadbalance=roundrobin");
        assertThat((String) invoker.invoke(call).getValue()).contains("limit 6", "[a:20880, b:20880] -> a:20880");
        assertThat((String) invoker.invoke(call).getValue()).contains("-> b:20880");
        url[0] = consumer("report.limit=60");
        assertThatThrownBy(() -> invoker.invoke(call)).hasMessageStartingWith("report.limit: 60 (expected: an integer from 1 to 10)");
    }

    // ------------------------------------------------------------------ sticky

    @Test
    void sticky_keepsThePickedProvider_perMethod_untilItIsUnavailable() {
        FakeProvider<FakeService> a = provider("a");
        FakeProvider<FakeService> b = provider("b");
        FakeProvider<FakeService> c = provider("c");
        Invoker<FakeService> invoker = join("failover", directory("loadbalance=roundrobin&sticky=true", List.of(a, b, c)));
        for (int i = 0; i < 3; i++) {
            assertThat(invoker.invoke(call).getValue()).isEqualTo("a");
        }
        a.available(false);
        assertThat(invoker.invoke(call).getValue()).isEqualTo("b");
        a.available(true);
        assertThat(invoker.invoke(call).getValue()).isEqualTo("b");
        assertThat(invoker.invoke(call).getValue()).isEqualTo("b");
        // another method has its own sticky provider
        assertThat(invoker.invoke(run).getValue()).isEqualTo("a");
        assertThat(invoker.invoke(call).getValue()).isEqualTo("b");
    }

    @Test
    void sticky_aFailingStickyProvider_isLeftForTheRetry_andTheRetryBecomesSticky() {
        FakeProvider<FakeService> a = provider("a").thenFail(Reply.networkError());
        FakeProvider<FakeService> b = provider("b");
        Invoker<FakeService> invoker = join("failover", directory("loadbalance=roundrobin&sticky=true&retries=1", List.of(a, b)));
        assertThat(invoker.invoke(call).getValue()).isEqualTo("b");
        assertThat(invoker.invoke(call).getValue()).isEqualTo("b");
        assertThat(log.providers()).containsExactly("a", "b", "b");
    }

    @Test
    void sticky_keepsTheProvider_whenTheDirectoryShowsItThroughANewView() {
        FakeProvider<FakeService> a = provider("a");
        FakeProvider<FakeService> b = provider("b");
        FakeProvider<FakeService> c = provider("c");
        DynamicDirectory<FakeService> directory = new DynamicDirectory<>(FakeService.class, consumer("loadbalance=roundrobin&sticky=true"));
        directory.setInvokers(List.of(new ProviderView<>(a, "timeout=100"), new ProviderView<>(b, "timeout=100"), new ProviderView<>(c, "timeout=100")));
        Invoker<FakeService> invoker = join("failover", directory);
        a.available(false);
        assertThat(invoker.invoke(call).getValue()).isEqualTo("b");
        a.available(true);
        assertThat(invoker.invoke(call).getValue()).isEqualTo("b");

        // a registry rule changing timeout shows every provider through a new view; b is still listed
        directory.setInvokers(List.of(new ProviderView<>(a, "timeout=300"), new ProviderView<>(b, "timeout=300"), new ProviderView<>(c, "timeout=300")));
        for (int i = 0; i < 3; i++) {
            assertThat(invoker.invoke(call).getValue()).isEqualTo("b");
        }
        assertThat(log.providers()).containsOnly("b");
    }

    @Test
    void failover_doesNotRetryTheFailedProvider_whenTheDirectoryShowsItThroughANewViewMeanwhile() {
        FakeProvider<FakeService> b = provider("b");
        DynamicDirectory<FakeService> directory = new DynamicDirectory<>(FakeService.class, consumer("loadbalance=roundrobin&retries=1"));
        FakeProvider<FakeService> a = provider("a");
        a.answering((invocation, self) -> {
            // a registry rule arrives while the call fails: every provider gets a new view
            directory.setInvokers(List.of(new ProviderView<>(a, "timeout=300"), new ProviderView<>(b, "timeout=300")));
            return Reply.networkError().reply(invocation, self);
        });
        directory.setInvokers(List.of(new ProviderView<>(a, "timeout=100"), new ProviderView<>(b, "timeout=100")));
        Invoker<FakeService> invoker = join("failover", directory);

        assertThat(invoker.invoke(call).getValue()).isEqualTo("b");
        assertThat(log.providers()).containsExactly("a", "b");
    }

    @Test
    void notSticky_theBalancerChoosesEveryCall() {
        Invoker<FakeService> invoker = join("failover", directory("loadbalance=roundrobin&sticky=false",
                List.of(provider("a"), provider("b"))));
        assertThat(List.of(invoker.invoke(call).getValue(), invoker.invoke(call).getValue(), invoker.invoke(call).getValue()))
                .containsExactly("a", "b", "a");
    }

    // ------------------------------------------------------------------ statistics

    @Test
    void statistics_countCallsInFlight_andABusinessExceptionAsAnAnswer() throws Exception {
        FakeProvider<FakeService> a = provider("a");
        FakeProvider<FakeService> idle = provider("idle").weight(0);
        Invoker<FakeService> invoker = join("failfast", directory("loadbalance=shortestresponse", List.of(a, idle)));
        InvokerStats counters = CallStats.of(director).get(a);
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try (HeldCalls held = a.holdCalls(Duration.ofSeconds(20))) {
            Future<Result> pending = caller.submit(() -> invoker.invoke(call));
            held.awaitHeld(1);
            assertThat(counters.inFlight()).isEqualTo(1);
            held.releaseAll();
            assertThat(pending.get().getValue()).isEqualTo("a");
        } finally {
            caller.shutdownNow();
        }
        assertThat(counters.inFlight()).isZero();

        a.thenFail(Reply.rpcFailure(RpcException.BIZ_EXCEPTION)).thenFail(Reply.networkError());
        assertThatThrownBy(() -> invoker.invoke(call)).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue());
        assertThatThrownBy(() -> invoker.invoke(call)).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNetwork()).isTrue());
        long now = CallStats.of(director).ticker().read();
        assertThat(counters.isLatencyTimed()).isTrue();
        assertThat(counters.recentSuccesses(now)).isEqualTo(2);
        assertThat(counters.recentFailures(now)).isEqualTo(1);
    }

    // ------------------------------------------------------------------ directory states

    @Test
    void directoryStates_growInVersion_separateMocks_andRecordWhoWasDown() {
        FakeProvider<FakeService> a = provider("a");
        FakeProvider<FakeService> b = provider("b").available(false);
        FakeProvider<FakeService> mock = FakeProvider.at(FakeService.class, URL.valueOf("mock://m/" + SERVICE));
        DynamicDirectory<FakeService> directory = new DynamicDirectory<>(FakeService.class, consumer("x=1"));
        long first = directory.state().version();
        directory.setInvokers(List.of(a, b, mock));
        DirectoryState<FakeService> state = directory.state();
        assertThat(state.version()).isEqualTo(first + 1);
        assertThat(state.allInvokers()).containsExactly(a, b, mock);
        assertThat(state.invokers()).containsExactly(a, b);
        assertThat(state.mockInvokers()).containsExactly(mock);
        assertThat(state.candidates()).containsExactly(a);
        assertThat(state.down()).containsExactly(b);
        assertThat(state.availableCheck()).isTrue();
        assertThat(state).hasToString("DirectoryState[v" + (first + 1) + ", 2 providers (1 available), 1 mock, " + consumer("x=1") + "]");

        directory.setInvokers(List.of(a, b, mock));
        assertThat(directory.state()).isSameAs(state);
        b.available(true);
        assertThat(directory.list(call)).containsExactly(a, b);
        assertThat(directory.state().version()).isEqualTo(first + 2);
        assertThat(directory.state().down()).isEmpty();
        assertThat(directory.state()).hasToString("DirectoryState[v" + (first + 2) + ", 2 providers (2 available), 1 mock, "
                + consumer("x=1") + "]");
        assertThat(directory).hasToString("DynamicDirectory[" + SERVICE + ", 3 invokers, " + consumer("x=1") + "]");

        directory.setState(consumer("cluster.availablecheck=false"), List.of(b));
        assertThat(directory.state().availableCheck()).isFalse();
        assertThat(directory.state()).hasToString("DirectoryState[v" + (first + 3) + ", 1 providers (1 available), "
                + consumer("cluster.availablecheck=false") + "]");
    }
}
