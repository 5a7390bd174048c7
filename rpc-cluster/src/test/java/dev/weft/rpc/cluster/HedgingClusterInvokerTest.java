package dev.weft.rpc.cluster;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.ThreadlessExecutor;
import dev.weft.rpc.loadbalance.RoundRobinLoadBalance;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.Calls;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeTicker;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import static dev.weft.rpc.cluster.TestClusters.consumer;
import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code cluster=hedging}: hedges after the delay to untried providers, first answer wins, losers cancelled, within the budget. */
class HedgingClusterInvokerTest {

    private final ExtensionDirector director = new ExtensionDirector(HedgingClusterInvokerTest.class.getClassLoader());
    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
    private final FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "10.0.0.3");
    private final List<AsyncResult> pendingAnswers = new CopyOnWriteArrayList<>();
    private final List<Cancellation> heldCancellations = new CopyOnWriteArrayList<>();

    @AfterEach
    void tearDown() {
        director.close();
    }

    /** Hedging over {@code directory}, the balancer always choosing the first candidate. */
    private Invoker<Greeting> hedging(DynamicDirectory<Greeting> directory) {
        HedgingCluster cluster = (HedgingCluster) director.getExtensionLoader(Cluster.class).getExtension("hedging", false);
        return TestClusters.first(cluster).join(directory);
    }

    private ServiceResilience resilience() {
        return ResilienceStats.of(director).service(Greeting.class.getName());
    }

    /** Answers later: a pending result the test completes, failed with CANCELLED when its attempt is cancelled (as a protocol does). */
    private Reply later() {
        return (invocation, provider) -> {
            AsyncResult answer = AsyncResult.pending();
            Cancellation cancellation = invocation.getCallOptions().cancellation();
            heldCancellations.add(cancellation);
            cancellation.onCancel(() -> answer.fail(new RpcException(RpcException.CANCELLED, "cancelled at " + provider.name())));
            pendingAnswers.add(answer);
            return answer;
        };
    }

    @Test
    void hedging_afterTheDelay_sendsAHedgeToAnUntriedProvider_whoseAnswerWins_andTheLoserIsCancelled() throws Exception {
        a.answering(later());
        b.answering(Reply.providerName());
        Invoker<Greeting> invoker = hedging(directory("hedge-delay=20ms", a, b, c));

        Result result = Calls.await(invoker.invoke(hello()));

        assertThat(result.getValue()).isEqualTo("10.0.0.2");
        assertThat(heldCancellations).singleElement().satisfies(cancellation -> assertThat(cancellation.isCancelled()).isTrue());
        assertThat(c.calls()).as("one hedge (hedges=1)").isZero();
        assertThat(resilience().hedgesSent()).isEqualTo(1);
        assertThat(resilience().hedgesWon()).isEqualTo(1);
    }

    @Test
    void hedging_aFirstAnswerBeforeTheDelay_sendsNoHedge() {
        a.answering(Reply.providerName());
        Invoker<Greeting> invoker = hedging(directory("hedge-delay=5s", a, b));

        assertThat(Calls.invoke(invoker, hello()).getValue()).isEqualTo("10.0.0.1");
        assertThat(b.calls()).isZero();
        assertThat(resilience().hedgesSent()).isZero();
    }

    @Test
    void hedging_aFailedAttemptWithNothingElseRunning_hedgesAtOnce_andTheLastFailureEndsTheCall() {
        a.answering(Reply.networkError());
        b.answering(Reply.timeout());
        c.answering(Reply.providerName());
        Invoker<Greeting> invoker = hedging(directory("hedge-delay=5s&hedges=1", a, b, c));

        assertThatThrownBy(() -> Calls.invoke(invoker, hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                .hasMessageStartingWith("Hedged invoke of method hello of service dev.weft.rpc.cluster.Greeting failed after 2 attempts"
                        + " on [10.0.0.1:20880, 10.0.0.2:20880] (hedges=1;")
                .hasMessageEndingWith("last cause: RpcException: scripted timeout at fake provider 10.0.0.2 (method hello)");
        assertThat(c.calls()).isZero();
    }

    @Test
    void hedging_theServicesOwnExceptionIsAnAnswer_notHedged() {
        a.answering(Reply.rpcFailure(RpcException.BIZ_EXCEPTION));
        Invoker<Greeting> invoker = hedging(directory("hedge-delay=5s", a, b));

        assertThatThrownBy(() -> Calls.invoke(invoker, hello())).hasMessageContaining("scripted business failure");
        assertThat(b.calls()).isZero();
    }

    @Test
    void hedging_aSpentBudget_sendsNoHedge_andCountsTheRefusal() throws Exception {
        a.answering(later());
        b.answering(Reply.providerName());
        Invoker<Greeting> invoker = hedging(directory("hedge-delay=10ms&retry-budget=0&retry-budget-min=0", a, b));

        Result call = invoker.invoke(hello());
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (resilience().budgetRefusals() == 0 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(resilience().budgetRefusals()).isEqualTo(1);
        assertThat(call.isDone()).isFalse();
        pendingAnswers.get(0).complete(RpcResult.of("10.0.0.1"));

        assertThat(Calls.await(call).getValue()).isEqualTo("10.0.0.1");
        assertThat(b.calls()).isZero();
        assertThat(resilience().hedgesSent()).isZero();
    }

    @Test
    void hedging_percentileDelay_hedgesNoneOfTheFirstCalls_beforeTheMethodHasLatencies() {
        a.answering(Reply.providerName());
        Invoker<Greeting> invoker = hedging(directory("hedge-delay=p99", a, b));

        for (int i = 0; i < RecentLatency.MIN_SAMPLES; i++) {
            assertThat(Calls.invoke(invoker, hello()).getValue()).isEqualTo("10.0.0.1");
        }
        assertThat(resilience().hedgesSent()).isZero();
        assertThat(b.calls()).isZero();
    }

    @Test
    void hedgingKeys_badValues_areRefusedWhenTheStateIsBuilt() {
        DynamicDirectory<Greeting> directory = directory("", a, b);
        hedging(directory);

        assertThatThrownBy(() -> directory.setUrl(consumer("hedge-delay=soon")))
                .hasMessageStartingWith("hedge-delay: soon (expected: a percentile such as p95 or p99, or a duration such as 50ms)");
        assertThatThrownBy(() -> directory.setUrl(consumer("hello.hedge-delay=50")))
                .hasMessageStartingWith("hello.hedge-delay: 50 (expected: a duration such as 50ms, 30s or 10m, from 0ms to 10m)");
        assertThatThrownBy(() -> directory.setUrl(consumer("hedges=17")))
                .hasMessageStartingWith("hedges: 17 (expected: an integer from 0 to 16)");
        assertThat(directory.getUrl()).isEqualTo(consumer(""));
    }

    @Test
    void recentLatency_knowsAProvidersPercentileFromTwentySamples() {
        RecentLatency latency = new RecentLatency();
        for (int i = 1; i < RecentLatency.MIN_SAMPLES; i++) {
            latency.record(a, i * 1_000_000L);
        }
        assertThat(latency.percentileNanos(95)).isEqualTo(-1);
        latency.record(a, 20_000_000L);

        assertThat(latency.percentileNanos(95)).isEqualTo(19_000_000L);
        assertThat(latency.percentileNanos(50)).isEqualTo(10_000_000L);
        assertThat(latency.percentileNanos(100)).isEqualTo(20_000_000L);
    }

    @Test
    void recentLatency_oneSlowProviderOfFour_doesNotSetThePercentile_aSlowMajorityDoes() {
        FakeProvider<Greeting> d = FakeProvider.of(Greeting.class, "10.0.0.4");
        RecentLatency latency = new RecentLatency();
        for (int i = 0; i < 100; i++) {
            latency.record(a, 10_000_000L + i * 10_000L); // 10.00 to 10.99 ms
            latency.record(b, 10_000_000L);
            latency.record(c, 12_000_000L);
            latency.record(d, 200_000_000L);
        }
        // over all 400 attempts the p95 would be 200 ms: a quarter of them are the slow provider's
        assertThat(latency.percentileNanos(95)).as("lower median of 10, 10.94, 12 and 200 ms").isEqualTo(10_940_000L);

        for (int i = 0; i < RecentLatency.SIZE; i++) {
            latency.record(b, 150_000_000L);
            latency.record(c, 180_000_000L);
        }
        assertThat(latency.percentileNanos(95)).as("lower median of 10.94, 150, 180 and 200 ms").isEqualTo(150_000_000L);
    }

    @Test
    void recentLatency_aProviderWithFewSamples_doesNotCount() {
        FakeProvider<Greeting> d = FakeProvider.of(Greeting.class, "10.0.0.4");
        RecentLatency latency = new RecentLatency();
        for (int i = 0; i < RecentLatency.MIN_SAMPLES; i++) {
            latency.record(a, 30_000_000L);
        }
        for (int i = 0; i < RecentLatency.MIN_SAMPLES - 1; i++) {
            latency.record(b, 5_000_000L);
            latency.record(c, 5_000_000L);
        }

        assertThat(latency.percentileNanos(95)).isEqualTo(30_000_000L);
    }

    @Test
    void hedgeDelayP95_withOneProviderOfFourTwentyTimesSlower_isTheFastProvidersLatency() {
        FakeTicker ticker = new FakeTicker();
        ExtensionDirector timed = new ExtensionDirector(HedgingClusterInvokerTest.class.getClassLoader(), ticker);
        try {
            FakeProvider<Greeting> d = FakeProvider.of(Greeting.class, "10.0.0.4");
            a.answering(Reply.providerName()).latency(Duration.ofMillis(10), ticker);
            b.answering(Reply.providerName()).latency(Duration.ofMillis(10), ticker);
            c.answering(Reply.providerName()).latency(Duration.ofMillis(10), ticker);
            d.answering(Reply.providerName()).latency(Duration.ofMillis(200), ticker);
            HedgingCluster cluster = (HedgingCluster) timed.getExtensionLoader(Cluster.class).getExtension("hedging", false);
            HedgingClusterInvoker<Greeting> invoker = (HedgingClusterInvoker<Greeting>) TestClusters.using(cluster,
                    new RoundRobinLoadBalance()).join(directory("hedge-delay=5s", a, b, c, d));

            for (int i = 0; i < 4 * RecentLatency.MIN_SAMPLES; i++) {
                Calls.invoke(invoker, hello());
            }

            assertThat(List.of(a.calls(), b.calls(), c.calls(), d.calls())).containsOnly(RecentLatency.MIN_SAMPLES);
            assertThat(invoker.percentileDelayNanos("hello", 95)).isEqualTo(Duration.ofMillis(10).toNanos());
            assertThat(invoker.percentileDelayNanos("hello", 99)).isEqualTo(Duration.ofMillis(10).toNanos());
        } finally {
            timed.close();
        }
    }

    @Test
    void hedge_startsOnTheCallsExecutor_notOnTheTimerThread() throws Exception {
        List<String> hedgeThreads = new CopyOnWriteArrayList<>();
        a.answering(later());
        b.answering((invocation, provider) -> {
            hedgeThreads.add(Thread.currentThread().getName());
            return Reply.providerName().reply(invocation, provider);
        });
        Invoker<Greeting> invoker = hedging(directory("hedge-delay=10ms", a, b));
        ExecutorService callers = Executors.newSingleThreadExecutor(runnable -> new Thread(runnable, "the-calls-executor"));
        try {
            RpcInvocation call = hello();
            call.setCallOptions(CallOptions.DEFAULT.withExecutor(callers));

            assertThat(Calls.await(invoker.invoke(call)).getValue()).isEqualTo("10.0.0.2");
            assertThat(hedgeThreads).containsExactly("the-calls-executor");
        } finally {
            callers.shutdownNow();
        }
    }

    @Test
    void hedge_ofASyncCall_startsOnTheWaitingCallersThread() {
        List<Thread> hedgeThreads = new CopyOnWriteArrayList<>();
        a.answering(later());
        b.answering((invocation, provider) -> {
            hedgeThreads.add(Thread.currentThread());
            return Reply.providerName().reply(invocation, provider);
        });
        Invoker<Greeting> invoker = hedging(directory("hedge-delay=10ms", a, b));
        ThreadlessExecutor executor = new ThreadlessExecutor(Runnable::run);
        RpcInvocation call = hello();
        call.setCallOptions(CallOptions.DEFAULT.withExecutor(executor));

        Result result = invoker.invoke(call);
        executor.await(result, Cancellation.NONE);

        assertThat(result.getValue()).isEqualTo("10.0.0.2");
        assertThat(hedgeThreads).containsExactly(Thread.currentThread());
    }

    @Test
    void hedge_ofACallWithoutExecutor_startsOnTheClustersStarterThread() throws Exception {
        List<String> hedgeThreads = new CopyOnWriteArrayList<>();
        a.answering(later());
        b.answering((invocation, provider) -> {
            hedgeThreads.add(Thread.currentThread().getName());
            return Reply.providerName().reply(invocation, provider);
        });
        Invoker<Greeting> invoker = hedging(directory("hedge-delay=10ms", a, b));

        assertThat(Calls.await(invoker.invoke(hello())).getValue()).isEqualTo("10.0.0.2");
        assertThat(hedgeThreads).singleElement().asString().startsWith("weft-hedge-starter-");
    }
}
