package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Calls;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.protocol.Greeter;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeTicker;
import dev.weft.rpc.testing.HeldCalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** {@code executes=auto}: the adaptive (Vegas) limit, its busy answers and its counters. */
class AdaptiveExecuteLimitTest {

    private static final Duration AWAIT = Duration.ofSeconds(10);
    private static final String GREET = "dev.weft.rpc.protocol.Greeter#greet";

    private final FakeTicker ticker = new FakeTicker();
    private final ExtensionDirector director = new ExtensionDirector(AdaptiveExecuteLimitTest.class.getClassLoader(), ticker);
    private final FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/com.example.Greeter?greet.executes=auto");
    private final Invoker<Greeter> chain = FilterChain.provider(provider, director);

    @AfterEach
    void close() {
        director.close();
    }

    /** Runs {@code calls} calls at once, held in the provider while the ticker moves {@code latency}; all answered. */
    private void concurrentRound(int calls, Duration latency) throws Exception {
        HeldCalls held = provider.holdCalls();
        try (Concurrently threads = new Concurrently(calls)) {
            for (int i = 0; i < calls; i++) {
                threads.submit(() -> chain.invoke(Calls.greet("ada")));
            }
            assertThat(held.awaitHeld(calls, AWAIT)).isTrue();
            ticker.advance(latency);
            held.releaseAll();
            threads.awaitAll();
        }
    }

    /** Holds {@code count} calls (each admitted), then checks that one more is answered busy at once. */
    private void assertAdmitsExactly(int count) throws Exception {
        HeldCalls held = provider.holdCalls();
        try (Concurrently threads = new Concurrently(count)) {
            for (int i = 0; i < count; i++) {
                threads.submit(() -> chain.invoke(Calls.greet("ada")));
            }
            assertThat(held.awaitHeld(count, AWAIT)).as("%s calls admitted at once", count).isTrue();
            assertThatThrownBy(() -> chain.invoke(Calls.greet("one more")))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue());
            held.releaseAll();
            threads.awaitAll();
        }
    }

    private int limit() {
        return ExecuteLimits.of(director).adaptiveLimits().get(GREET);
    }

    @Test
    void executesAuto_admitsTheInitialLimit_thenAnswersBusyAtOnce_countingIt() throws Exception {
        HeldCalls held = provider.holdCalls();
        try (Concurrently threads = new Concurrently(AdaptiveLimit.INITIAL_LIMIT)) {
            for (int i = 0; i < AdaptiveLimit.INITIAL_LIMIT; i++) {
                threads.submit(() -> chain.invoke(Calls.greet("ada")));
            }
            assertThat(held.awaitHeld(AdaptiveLimit.INITIAL_LIMIT, AWAIT)).isTrue();

            assertThatThrownBy(() -> chain.invoke(Calls.greet("one too many")))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessage("Server busy: executions of method greet of dev.weft.rpc.protocol.Greeter: 20 (expected: below the"
                            + " adaptive limit 20 of executes=auto; not run, safe to retry)");
            assertThat(provider.calls()).isEqualTo(AdaptiveLimit.INITIAL_LIMIT);
            held.releaseAll();
            threads.awaitAll();
        }
        ExecuteLimits limits = ExecuteLimits.of(director);
        assertThat(limits.busyAnswers()).isEqualTo(1);
        assertThat(limits.busyAnswersByMethod()).containsExactly(java.util.Map.entry(GREET, 1L));
        assertThat(limits.adaptiveLimits()).containsOnlyKeys(GREET);
        assertThat(chain.invoke(Calls.read("/etc")).getException()).as("other methods are not limited").hasMessage("disk");
    }

    @Test
    void executesAuto_lowersTheLimitWhenQueueingSlowsTheCalls_andRaisesItWhenTheyAreFastAgain() throws Exception {
        for (int round = 0; round < 4; round++) {
            concurrentRound(15, Duration.ofMillis(2));
        }
        int settled = limit();
        assertThat(settled).as("fast calls at 15 of 20 in flight do not lower it").isGreaterThanOrEqualTo(AdaptiveLimit.INITIAL_LIMIT);

        for (int round = 0; round < 3; round++) { // the limit learns only from calls made at half the limit or more
            concurrentRound(limit(), Duration.ofMillis(40));
        }
        int lowered = limit();
        assertThat(lowered).as("20x slower calls").isLessThan(settled / 2);
        assertAdmitsExactly(lowered);

        for (int round = 0; round < 10; round++) {
            concurrentRound(Math.max(1, lowered), Duration.ofMillis(2));
        }
        assertThat(limit()).as("fast again").isGreaterThan(lowered);
    }

    @Test
    void executes_acceptsAutoOrACount_andRefusesAnythingElseWhenTheChainIsBuilt() {
        ExecuteLimitFilter filter = new ExecuteLimitFilter();
        filter.checkUrl(URL.valueOf("injvm://127.0.0.1/x?executes=auto&greet.executes=3"));

        assertThatThrownBy(() -> filter.checkUrl(URL.valueOf("injvm://127.0.0.1/x?greet.executes=adaptive")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL parameter greet.executes: adaptive (expected: an integer >= 0, 0 means no limit, or auto) in "
                        + "injvm://127.0.0.1/x?greet.executes=adaptive");
    }

    @Test
    void admitOnReceipt_admitsUpToTheLimit_refusesBusyCounted_andTheFilterLeavesAdmittedCallsAlone() throws Exception {
        ExecuteLimits limits = ExecuteLimits.of(director);
        List<String> toldRefused = new ArrayList<>();
        limits.onRefusedOnReceipt((service, method) -> toldRefused.add(service + "#" + method));
        URL exported = provider.getUrl();
        List<ExecuteLimits.Admission> admitted = new ArrayList<>();
        for (int i = 0; i < AdaptiveLimit.INITIAL_LIMIT; i++) {
            admitted.add(limits.admitOnReceipt(exported, Greeter.class.getName(), "greet"));
        }
        assertThat(admitted).allSatisfy(a -> assertThat(a.isAdmitted()).isTrue());

        ExecuteLimits.Admission refused = limits.admitOnReceipt(exported, Greeter.class.getName(), "greet");
        assertThat(refused.isRefused()).isTrue();
        assertThat(limits.busyAnswers()).isEqualTo(1);
        assertThat(toldRefused).as("what no filter sees, told to the listeners").containsExactly(GREET);
        // the filter shares the limit: a call it admits itself finds it full too
        assertThatThrownBy(() -> chain.invoke(Calls.greet("through the filter")))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue());
        // a call admitted on receipt runs through the filter without a second place
        RpcInvocation marked = Calls.greet("admitted");
        marked.setCallOptions(marked.getCallOptions().withAdmittedOnReceipt(true));
        assertThat(chain.invoke(marked).getValue()).isNotNull();

        admitted.get(0).ended(null);
        admitted.get(0).notRun(); // a second end does nothing
        assertThat(limits.admitOnReceipt(exported, Greeter.class.getName(), "greet").isAdmitted()).as("one place freed").isTrue();
        assertThat(limits.admitOnReceipt(exported, Greeter.class.getName(), "greet").isRefused()).isTrue();
        assertThat(limits.admitOnReceipt(exported, Greeter.class.getName(), "other")).as("a method without executes=auto")
                .isSameAs(ExecuteLimits.Admission.NOT_LIMITED);
    }

    @Test
    void admitOnReceipt_followsTheRules_aFixedLimitOrNoneIsLeftToTheFilter() {
        ExecuteLimits limits = ExecuteLimits.of(director);
        URL exported = provider.getUrl();
        limits.applyRules(exported, exported.addParameter("greet.executes", "3"));
        assertThat(limits.admitOnReceipt(exported, Greeter.class.getName(), "greet")).isSameAs(ExecuteLimits.Admission.NOT_LIMITED);
        limits.applyRules(exported, exported);
        assertThat(limits.admitOnReceipt(exported, Greeter.class.getName(), "greet").isAdmitted()).isTrue();
    }
}
