package dev.weft.rpc.cluster;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.Calls;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
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
    void recentLatency_knowsAPercentileFromTwentySamples() {
        RecentLatency latency = new RecentLatency();
        for (int i = 1; i < RecentLatency.MIN_SAMPLES; i++) {
            latency.record(i * 1_000_000L);
        }
        assertThat(latency.percentileNanos(95)).isEqualTo(-1);
        latency.record(20_000_000L);

        assertThat(latency.percentileNanos(95)).isEqualTo(19_000_000L);
        assertThat(latency.percentileNanos(50)).isEqualTo(10_000_000L);
        assertThat(latency.percentileNanos(100)).isEqualTo(20_000_000L);
    }
}
