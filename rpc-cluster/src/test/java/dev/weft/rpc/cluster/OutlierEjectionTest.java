package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeTicker;
import dev.weft.rpc.testing.HeldCalls;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static dev.weft.rpc.cluster.TestClusters.consumer;
import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Outlier ejection by failures and by latency, seen through the directory's state and the calls. */
class OutlierEjectionTest {

    private final FakeTicker ticker = new FakeTicker();
    private final ExtensionDirector director = new ExtensionDirector(OutlierEjectionTest.class.getClassLoader(), ticker);
    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
    private final FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "10.0.0.3");

    @AfterEach
    void tearDown() {
        director.close();
    }

    /** Failover over {@code directory}, the balancer always choosing the first candidate, on the fake ticker. */
    private Invoker<Greeting> failover(DynamicDirectory<Greeting> directory) {
        FailoverCluster cluster = new FailoverCluster();
        cluster.setExtensionDirector(director);
        return TestClusters.first(cluster).join(directory);
    }

    private ServiceResilience resilience() {
        return ResilienceStats.of(director).service(Greeting.class.getName());
    }

    private static void callTimes(Invoker<Greeting> invoker, int times) {
        for (int i = 0; i < times; i++) {
            invoker.invoke(hello());
        }
    }

    @Test
    void outlierFailures_ejectsAfterFiveFailuresInARow_leavingTheStateAndItsPicker() {
        a.answering(Reply.networkError());
        b.answering(Reply.providerName());
        c.answering(Reply.providerName());
        DynamicDirectory<Greeting> directory = directory("", a, b, c);
        Invoker<Greeting> invoker = failover(directory);

        callTimes(invoker, 4);
        assertThat(directory.state().ejected()).isEmpty();
        callTimes(invoker, 1);

        assertThat(directory.state().ejected()).containsExactly(a);
        assertThat(directory.state().candidates()).containsExactly(b, c);
        callTimes(invoker, 20);
        assertThat(a.calls()).as("no call reaches it once ejected").isEqualTo(5);
        assertThat(b.calls()).isEqualTo(25);
        assertThat(resilience().ejections()).isEqualTo(1);
        assertThat(resilience().ejectedNow()).isEqualTo(1);
    }

    @Test
    void outlierFailures_anAnswerInBetween_startsTheCountAgain_andBusyAnswersDoNotCount() {
        a.then(Reply.networkError(), Reply.networkError(), Reply.networkError(), Reply.networkError(), Reply.providerName(),
                Reply.notProcessed(), Reply.notProcessed(), Reply.notProcessed(), Reply.notProcessed(), Reply.notProcessed(),
                Reply.networkError(), Reply.networkError(), Reply.networkError(), Reply.networkError());
        b.answering(Reply.providerName());
        DynamicDirectory<Greeting> directory = directory("", a, b);
        Invoker<Greeting> invoker = failover(directory);

        callTimes(invoker, 14);

        assertThat(a.calls()).isEqualTo(14);
        assertThat(directory.state().ejected()).isEmpty();
        a.answering(Reply.networkError());
        callTimes(invoker, 1);
        assertThat(directory.state().ejected()).containsExactly(a);
    }

    @Test
    void ejection_endsAfterItsTime_onProbation_whereOneFailureEjectsAgainForTwiceAsLong() {
        a.answering(Reply.networkError());
        b.answering(Reply.providerName());
        DynamicDirectory<Greeting> directory = directory("outlier-ejection=10s", a, b);
        Invoker<Greeting> invoker = failover(directory);
        callTimes(invoker, 5);
        assertThat(directory.state().ejected()).containsExactly(a);

        ticker.advance(Duration.ofMillis(9_999));
        callTimes(invoker, 1);
        assertThat(a.calls()).isEqualTo(5);
        ticker.advance(Duration.ofMillis(1));
        callTimes(invoker, 1);
        assertThat(a.calls()).as("back on probation: the first failure ejects it again").isEqualTo(6);
        assertThat(directory.state().ejected()).containsExactly(a);
        assertThat(resilience().returns()).isEqualTo(1);

        ticker.advance(Duration.ofSeconds(19));
        callTimes(invoker, 1);
        assertThat(a.calls()).as("ejected for 20 s this time").isEqualTo(6);
        ticker.advance(Duration.ofSeconds(1));
        a.answering(Reply.providerName());
        callTimes(invoker, 1);
        assertThat(a.calls()).isEqualTo(7);
        assertThat(directory.state().ejected()).isEmpty();
        assertThat(resilience().ejections()).isEqualTo(2);
        assertThat(resilience().ejectedNow()).isZero();
    }

    @Test
    void aReturningProvider_getsOneProbe_otherCallsGoElsewhereUntilItsOutcome() throws Exception {
        a.answering(Reply.networkError());
        b.answering(Reply.providerName());
        DynamicDirectory<Greeting> directory = directory("outlier-ejection=10s", a, b);
        Invoker<Greeting> invoker = failover(directory);
        callTimes(invoker, 5);
        ticker.advance(Duration.ofSeconds(10));
        a.answering(Reply.providerName());
        HeldCalls probe = a.holdCalls();
        ExecutorService caller = Executors.newSingleThreadExecutor();
        try {
            Future<Object> probed = caller.submit(() -> invoker.invoke(hello()).getValue());
            assertThat(probe.awaitHeld(1, Duration.ofSeconds(10))).isTrue();

            assertThat(invoker.invoke(hello()).getValue()).as("the balancer chose a; not sent while its probe runs").isEqualTo("10.0.0.2");
            assertThat(a.calls()).isEqualTo(6);
            probe.releaseAll();
            assertThat(probed.get(10, TimeUnit.SECONDS)).isEqualTo("10.0.0.1");
        } finally {
            caller.shutdownNow();
        }
        assertThat(invoker.invoke(hello()).getValue()).as("probe answered: calls flow").isEqualTo("10.0.0.1");
    }

    @Test
    void probation_passed_theNextEjectionIsTheFirstAgain() {
        a.answering(Reply.networkError());
        b.answering(Reply.providerName());
        DynamicDirectory<Greeting> directory = directory("outlier-ejection=10s&outlier-failures=2", a, b);
        Invoker<Greeting> invoker = failover(directory);
        callTimes(invoker, 2);
        ticker.advance(Duration.ofSeconds(10));
        a.answering(Reply.providerName());
        callTimes(invoker, 1); // returns, answers on probation
        ticker.advance(Duration.ofSeconds(10));
        callTimes(invoker, 1); // answers after probation: history forgotten
        a.answering(Reply.networkError());
        callTimes(invoker, 2);
        assertThat(directory.state().ejected()).containsExactly(a);

        ticker.advance(Duration.ofSeconds(10));
        callTimes(invoker, 1);
        assertThat(a.calls()).as("10 s, not 20 s: the first ejection time again").isEqualTo(7);
    }

    @Test
    void ejection_neverTakesMoreThanTheMaxPercent_butOneProviderAlways() {
        a.answering(Reply.networkError());
        b.answering(Reply.networkError());
        c.answering(Reply.providerName());
        DynamicDirectory<Greeting> directory = directory("outlier-failures=1&outlier-max-percent=0&retries=2", a, b, c);
        Invoker<Greeting> invoker = failover(directory);

        callTimes(invoker, 3);

        assertThat(directory.state().ejected()).as("one of three may always be ejected").containsExactly(a);
        assertThat(resilience().ejections()).isEqualTo(1);
        directory.setUrl(consumer("outlier-failures=1&outlier-max-percent=70&retries=2"));
        callTimes(invoker, 1);
        assertThat(directory.state().ejected()).containsExactlyInAnyOrder(a, b);
        assertThat(directory.state().candidates()).containsExactly(c);
    }

    @Test
    void ejection_ofEveryOtherProviderDown_stillServesFromTheEjectedOne() {
        a.answering(Reply.networkError());
        b.answering(Reply.providerName());
        DynamicDirectory<Greeting> directory = directory("outlier-failures=1", a, b);
        Invoker<Greeting> invoker = failover(directory);
        callTimes(invoker, 1);
        assertThat(directory.state().ejected()).containsExactly(a);

        directory.setInvokers(List.of(a)); // b leaves: the ejected provider is all there is
        assertThat(directory.state().ejected()).containsExactly(a);
        assertThat(directory.state().candidates()).containsExactly(a);
    }

    @Test
    void outlierLatency_ejectsTheProviderSlowerThanTheFactorTimesItsPeersMedian() {
        a.answering(Reply.providerName()).latency(Duration.ofMillis(100), ticker);
        b.answering(Reply.providerName()).latency(Duration.ofMillis(10), ticker);
        c.answering(Reply.providerName()).latency(Duration.ofMillis(12), ticker);
        DynamicDirectory<Greeting> directory = directory("outlier-latency=3&loadbalance=roundrobin", a, b, c);
        FailoverCluster cluster = new FailoverCluster();
        cluster.setExtensionDirector(director);
        Invoker<Greeting> invoker = cluster.join(directory);

        callTimes(invoker, 3 * (OutlierSettings.MIN_LATENCY_SAMPLES - 1));
        ticker.advance(Duration.ofSeconds(1));
        callTimes(invoker, 1);
        assertThat(directory.state().ejected()).as("not before %s samples each", OutlierSettings.MIN_LATENCY_SAMPLES).isEmpty();
        callTimes(invoker, 3);
        ticker.advance(Duration.ofSeconds(1));
        callTimes(invoker, 1);

        assertThat(directory.state().ejected()).containsExactly(a);
        assertThat(resilience().ejections()).isEqualTo(1);
    }

    @Test
    void outlierLatency_providersWithinTheFactor_stay() {
        a.answering(Reply.providerName()).latency(Duration.ofMillis(25), ticker);
        b.answering(Reply.providerName()).latency(Duration.ofMillis(10), ticker);
        c.answering(Reply.providerName()).latency(Duration.ofMillis(12), ticker);
        DynamicDirectory<Greeting> directory = directory("outlier-latency=3&loadbalance=roundrobin", a, b, c);
        FailoverCluster cluster = new FailoverCluster();
        cluster.setExtensionDirector(director);
        Invoker<Greeting> invoker = cluster.join(directory);

        for (int round = 0; round < 5; round++) {
            callTimes(invoker, 30);
            ticker.advance(Duration.ofSeconds(1));
        }

        assertThat(directory.state().ejected()).isEmpty();
    }

    @Test
    void outlierFailures_zero_turnsEjectionOff_andTurningItOffLive_bringsEjectedProvidersBack() {
        a.answering(Reply.networkError());
        b.answering(Reply.providerName());
        DynamicDirectory<Greeting> directory = directory("outlier-failures=0", a, b);
        Invoker<Greeting> invoker = failover(directory);
        callTimes(invoker, 10);
        assertThat(directory.state().ejected()).isEmpty();

        directory.setUrl(consumer("outlier-failures=3"));
        callTimes(invoker, 3);
        assertThat(directory.state().ejected()).containsExactly(a);
        directory.setUrl(consumer("outlier-failures=0"));
        callTimes(invoker, 1);
        assertThat(directory.state().ejected()).isEmpty();
        assertThat(a.calls()).isEqualTo(14);
    }

    @Test
    void badResilienceValues_areRefusedWhenTheStateIsBuilt_theLastGoodKeepsServing() {
        b.answering(Reply.providerName());
        DynamicDirectory<Greeting> directory = directory("outlier-failures=2", b);
        failover(directory);

        assertThatThrownBy(() -> directory.setUrl(consumer("outlier-failures=-1")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("outlier-failures: -1 (expected: an integer from 0 to 1000000) in consumer URL "
                        + "consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting?outlier-failures=-1");
        assertThatThrownBy(() -> directory.setUrl(consumer("outlier-latency=0.5")))
                .hasMessageStartingWith("outlier-latency: 0.5 (expected: 0 (off) or a factor above 1, such as 3)");
        assertThatThrownBy(() -> directory.setUrl(consumer("outlier-ejection=30")))
                .hasMessageStartingWith("outlier-ejection: 30 (expected: a duration such as 50ms, 30s or 10m, from 1ms to 10m)");
        assertThatThrownBy(() -> directory.setUrl(consumer("outlier-max-percent=101")))
                .hasMessageStartingWith("outlier-max-percent: 101 (expected: an integer from 0 to 100)");
        assertThatThrownBy(() -> directory.setUrl(consumer("retry-budget=1.5")))
                .hasMessageStartingWith("retry-budget: 1.5 (expected: a number from 0.0 to 1.0)");
        assertThatThrownBy(() -> directory.setUrl(consumer("retry-budget-min=ten")))
                .hasMessageStartingWith("retry-budget-min: ten (expected: a number from 0.0 to 1000000.0)");
        assertThat(directory.getUrl()).isEqualTo(consumer("outlier-failures=2"));
    }

    @Test
    void failover_stopsRetryingWhenTheBudgetIsSpent_failingWithTheLastError_counted() {
        a.answering(Reply.networkError());
        b.answering(Reply.timeout());
        c.answering(Reply.providerName());
        DynamicDirectory<Greeting> directory = directory("retry-budget=0&retry-budget-min=0.2&outlier-failures=0", a, b, c);
        Invoker<Greeting> invoker = failover(directory);

        assertThat(invoker.invoke(hello()).getValue()).as("2 retries in the window: 0.2 per second over 10 s")
                .isEqualTo("10.0.0.3");
        assertThatThrownBy(() -> invoker.invoke(hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNetwork()).isTrue())
                .hasMessageContaining("after 1 attempt (retries=2, retry budget spent)")
                .hasMessageEndingWith("last cause: RpcException: scripted network failure at fake provider 10.0.0.1 (method hello)");
        assertThat(resilience().budgetRefusals()).isEqualTo(1);
        assertThat(resilience().retriesGranted()).isEqualTo(2);

        directory.setUrl(consumer("retry-budget=1&outlier-failures=0"));
        assertThat(invoker.invoke(hello()).getValue()).as("budget turned off live").isEqualTo("10.0.0.3");
    }
}
