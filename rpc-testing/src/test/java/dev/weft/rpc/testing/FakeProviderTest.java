package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FakeProviderTest {

    private static final Invocation GREET = Invocations.of(Greeting.class, "greet", "ada");
    private static final Invocation COUNT = Invocations.of(Greeting.class, "count");

    @Test
    void freshProvider_answersItsName_atAUrlNamedAfterIt() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a");

        assertThat(a.invoke(GREET).getValue()).isEqualTo("a");
        assertThat(a.getUrl()).isEqualTo(URL.valueOf("weft://a:20880/dev.weft.rpc.testing.Greeting"));
        assertThat(a.getInterface()).isEqualTo(Greeting.class);
        assertThat(a.name()).isEqualTo("a");
        assertThat(a.isAvailable()).isTrue();
    }

    @Test
    void named_servesFakeService() {
        FakeProvider<FakeService> provider = FakeProvider.named("x-1");

        assertThat(provider.getInterface()).isEqualTo(FakeService.class);
        assertThat(provider.getUrl().getPath()).isEqualTo(FakeService.class.getName());
        assertThat(provider.invoke(Invocations.of(FakeService.class, "run")).getValue()).isEqualTo("x-1");
    }

    @Test
    void badName_isRejected_withTheRule() {
        assertThatThrownBy(() -> FakeProvider.of(Greeting.class, "a b"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("name: 'a b' (expected: a host name of letters, digits, '.' and '-', starting with a letter or digit)");
        assertThatThrownBy(() -> FakeProvider.of(Greeting.class, "")).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void at_takesAnyUrl_andIsNamedAfterItsHost() {
        URL url = URL.valueOf("weft://10.0.0.7:20881/dev.weft.rpc.testing.Greeting?zone=eu&weight=5");

        FakeProvider<Greeting> provider = FakeProvider.at(Greeting.class, url);

        assertThat(provider.getUrl()).isEqualTo(url);
        assertThat(provider.name()).isEqualTo("10.0.0.7");
    }

    @Test
    void urlSetters_addTheKeys_balancersRead() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a")
                .weight(200)
                .warmup(Duration.ofMinutes(10), 1_700_000_000_000L)
                .parameter("zone", "eu")
                .parameter("greet.weight", "7");

        URL url = a.getUrl();
        assertThat(url.getParameter("weight", 0)).isEqualTo(200);
        assertThat(url.getParameter("warmup", 0L)).isEqualTo(600_000L);
        assertThat(url.getParameter("timestamp", 0L)).isEqualTo(1_700_000_000_000L);
        assertThat(url.getParameter("zone")).isEqualTo("eu");
        assertThat(url.getMethodParameter("greet", "weight", 0)).isEqualTo(7);
        assertThatThrownBy(() -> a.weight(-5))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("weight: -5 (expected: >= 0)");
        assertThat(a.getUrl()).isEqualTo(url);
    }

    @Test
    void queuedReplies_runInOrder_thenTheStandingReply() {
        FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "b")
                .thenFail(Reply.networkError())
                .thenAnswer("first")
                .then(Reply.value("second"), Reply.timeout())
                .answering("always");

        assertThat(b.queued()).isEqualTo(4);
        assertThatThrownBy(() -> b.invoke(GREET)).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNetwork()).isTrue());
        assertThat(b.invoke(GREET).getValue()).isEqualTo("first");
        assertThat(b.invoke(GREET).getValue()).isEqualTo("second");
        assertThatThrownBy(() -> b.invoke(GREET)).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue());
        assertThat(b.invoke(GREET).getValue()).isEqualTo("always");
        assertThat(b.invoke(GREET).getValue()).isEqualTo("always");
        assertThat(b.queued()).isZero();
    }

    @Test
    void failingWith_throwsRpcExceptions_andReturnsServiceExceptions() {
        RpcException refused = new RpcException(RpcException.NETWORK_EXCEPTION, "connection refused");
        IllegalStateException outOfStock = new IllegalStateException("out of stock");
        FakeProvider<Greeting> down = FakeProvider.of(Greeting.class, "down").failingWith(refused);
        FakeProvider<Greeting> failing = FakeProvider.of(Greeting.class, "failing").failingWith(outOfStock);

        assertThatThrownBy(() -> down.invoke(GREET)).isSameAs(refused);
        Result result = failing.invoke(GREET);
        assertThat(result.getException()).isSameAs(outOfStock);
        assertThat(failing.failingWith(Reply.timeout()))
                .satisfies(p -> assertThatThrownBy(() -> p.invoke(GREET)).hasMessageContaining("timeout at fake provider failing"));
    }

    @Test
    void thenFail_queuesOneFailure_ofEitherKind() {
        IllegalArgumentException bad = new IllegalArgumentException("bad name");
        FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "c").thenFail(bad).thenFail(Reply.notProcessed());

        assertThat(c.invoke(GREET).getException()).isSameAs(bad);
        assertThatThrownBy(() -> c.invoke(GREET)).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue());
        assertThat(c.invoke(GREET).getValue()).isEqualTo("c");
    }

    @Test
    void computedReplies_seeTheArguments() {
        FakeProvider<Greeting> echo = FakeProvider.of(Greeting.class, "echo")
                .answering(Reply.computed(inv -> inv.getMethodName() + ":" + inv.getArguments().length));

        assertThat(echo.invoke(GREET).getValue()).isEqualTo("greet:1");
        assertThat(echo.invoke(COUNT).getValue()).isEqualTo("count:0");
    }

    @Test
    void everyCall_isRecordedInArrivalOrder_failuresIncluded() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a").thenFail(Reply.networkError());

        assertThatThrownBy(() -> a.invoke(GREET)).isInstanceOf(RpcException.class);
        a.invoke(COUNT);
        a.invoke(GREET);

        assertThat(a.calls()).isEqualTo(3);
        assertThat(a.invocations()).containsExactly(GREET, COUNT, GREET);
        assertThat(a.methods()).containsExactly("greet", "count", "greet");
        assertThat(a.inFlight()).isZero();
    }

    @Test
    void callLog_recordsAcrossProviders_inOrder() {
        List<FakeProvider<Greeting>> providers = FakeProviders.of(Greeting.class, 3);
        CallLog log = CallLog.of(providers);

        providers.get(2).invoke(GREET);
        providers.get(0).invoke(COUNT);
        providers.get(2).invoke(GREET);

        assertThat(log.providers()).containsExactly("c", "a", "c");
        assertThat(log.entries()).extracting(CallLog.Entry::invocation).containsExactly(GREET, COUNT, GREET);
        assertThat(log.size()).isEqualTo(3);
        assertThat(log).hasToString("CallLog[c.greet, a.count, c.greet]");
        log.clear();
        assertThat(log.providers()).isEmpty();
    }

    @Test
    void latency_advancesTheTicker_perCall() {
        FakeTicker ticker = new FakeTicker();
        FakeProvider<Greeting> slow = FakeProvider.of(Greeting.class, "slow").latency(Duration.ofMillis(40), ticker);

        long before = ticker.read();
        slow.invoke(GREET);
        slow.invoke(GREET);

        assertThat(ticker.read() - before).isEqualTo(TimeUnit.MILLISECONDS.toNanos(80));
        slow.latency(Duration.ZERO, ticker).invoke(GREET);
        assertThat(ticker.read() - before).isEqualTo(TimeUnit.MILLISECONDS.toNanos(80));
        assertThatThrownBy(() -> slow.latency(Duration.ofMillis(-1), ticker))
                .hasMessage("latency: PT-0.001S (expected: >= 0)");
    }

    @Test
    void availability_isSwitchable_andCountsChecks() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a");

        a.available(false);
        assertThat(a.isAvailable()).isFalse();
        a.available(true);
        assertThat(a.isAvailable()).isTrue();
        assertThat(a.availabilityChecks()).isEqualTo(2);
    }

    @Test
    void availabilityHook_runsAtEachCheck_beforeTheAnswerIsRead() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a");
        a.onAvailabilityCheck(() -> a.available(false));

        assertThat(a.isAvailable()).isFalse();
        assertThat(a.availabilityChecks()).isEqualTo(1);
    }

    @Test
    void urlReads_countGetUrlCalls_only() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a").weight(5);
        a.invoke(GREET);
        a.toString();

        assertThat(a.urlReads()).isZero();
        a.getUrl();
        a.getUrl();
        assertThat(a.urlReads()).isEqualTo(2);
    }

    @Test
    void destroyed_isUnavailableForGood_andFailsCalls_asAClosedConnection() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a");

        a.destroy();
        a.available(true);

        assertThat(a.isDestroyed()).isTrue();
        assertThat(a.isAvailable()).isFalse();
        assertThatThrownBy(() -> a.invoke(GREET))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNetwork()).isTrue())
                .hasMessage("fake provider a is destroyed (method greet)");
        assertThat(a.calls()).isEqualTo(1);
    }

    @Test
    void aReplyReturningNull_makesInvokeReturnNull_toTestCallersOfBrokenInvokers() {
        FakeProvider<Greeting> broken = FakeProvider.of(Greeting.class, "broken").answering((inv, p) -> null);

        assertThat(broken.invoke(GREET)).isNull();
        assertThat(broken.calls()).isEqualTo(1);
    }

    @Test
    void lastInvocation_isTheMostRecentCall_orAClearError() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a");

        assertThatThrownBy(a::lastInvocation)
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("calls of fake provider a: 0 (expected: at least one)");
        a.invoke(GREET);
        a.invoke(COUNT);
        assertThat(a.lastInvocation()).isSameAs(COUNT);
    }

    @Test
    void toString_showsNameUrlCountsAndState() {
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a").weight(200).thenAnswer("x").thenAnswer("y");
        a.invoke(GREET);

        assertThat(a).hasToString("FakeProvider[a, weft://a:20880/dev.weft.rpc.testing.Greeting?weight=200, calls=1, inFlight=0,"
                + " available, queued=1]");
        a.available(false);
        assertThat(a.toString()).contains("unavailable");
        a.destroy();
        assertThat(a.toString()).contains("destroyed");
    }

    @Test
    void concurrentCalls_eachTakeOneQueuedReply_andAllAreRecorded() throws Exception {
        int threads = 8;
        int perThread = 5_000;
        int queued = 10_000;
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a").answering("standing");
        for (int i = 0; i < queued; i++) {
            a.thenAnswer(i);
        }
        CallLog log = CallLog.of(List.of(a));
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        List<Object> answers = new ArrayList<>();
        try {
            List<Future<List<Object>>> futures = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                futures.add(pool.submit(() -> {
                    List<Object> mine = new ArrayList<>();
                    for (int i = 0; i < perThread; i++) {
                        mine.add(a.invoke(GREET).getValue());
                    }
                    return mine;
                }));
            }
            for (Future<List<Object>> future : futures) {
                answers.addAll(future.get(60, TimeUnit.SECONDS));
            }
        } finally {
            pool.shutdownNow();
        }

        Set<Object> scripted = new HashSet<>(answers);
        scripted.remove("standing");
        assertThat(scripted).hasSize(queued);
        assertThat(answers).filteredOn("standing"::equals).hasSize(threads * perThread - queued);
        assertThat(a.calls()).isEqualTo(threads * perThread);
        assertThat(a.invocations()).hasSize(threads * perThread);
        assertThat(log.size()).isEqualTo(threads * perThread);
        assertThat(a.inFlight()).isZero();
    }
}
