package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.Invocation;
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
import dev.weft.rpc.testing.PeakInFlight;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ActiveLimitFilterTest {

    private static final Duration AWAIT = Duration.ofSeconds(10);

    private final ExtensionDirector director = new ExtensionDirector(ActiveLimitFilterTest.class.getClassLoader());

    @AfterEach
    void close() {
        director.close();
    }

    private Invoker<Greeter> chain(FakeProvider<Greeter> provider) {
        return FilterChain.consumer(provider, director);
    }

    @Test
    void actives_stress_neverMoreThanLimitInFlight_andEveryCallCompletes() throws Exception {
        PeakInFlight peak = PeakInFlight.around(GreeterProviders.working(Duration.ofMillis(1)));
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=3&timeout=30000").answering(peak);
        Invoker<Greeter> chain = chain(provider);
        AtomicInteger answered = new AtomicInteger();
        try (Concurrently threads = new Concurrently(16)) {
            for (int t = 0; t < 16; t++) {
                threads.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        assertThat(chain.invoke(Calls.greet("ada")).getValue()).isEqualTo("hello ada");
                        answered.incrementAndGet();
                    }
                    return null;
                });
            }
            threads.awaitAll();
        }
        assertThat(answered).hasValue(640);
        assertThat(provider.calls()).isEqualTo(640);
        assertThat(peak.peak()).isBetween(1, 3);
    }

    @Test
    void actives_letsExactlyLimitIn_othersWaitThenRunWhenPermitsReturn() throws Exception {
        PeakInFlight peak = PeakInFlight.around(GreeterProviders.GREETER);
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=3&timeout=30000").answering(peak);
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(5)) {
            List<Future<Object>> results = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                results.add(threads.submit(() -> chain.invoke(Calls.greet("ada")).getValue()));
            }
            assertThat(held.awaitHeld(3, AWAIT)).isTrue();
            Thread.sleep(100);
            assertThat(provider.inFlight()).isEqualTo(3);
            assertThat(provider.calls()).isEqualTo(3);
            held.releaseAll();
            threads.awaitAll();
            for (Future<Object> result : results) {
                assertThat(result.get()).isEqualTo("hello ada");
            }
        }
        assertThat(provider.calls()).isEqualTo(5);
        assertThat(peak.peak()).isEqualTo(3);
    }

    @Test
    void actives_waitPastTimeout_failsNotProcessed_withoutReachingTheProvider() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=100");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(1)) {
            threads.submit(() -> chain.invoke(Calls.greet("held")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            assertThatThrownBy(() -> chain.invoke(Calls.greet("ada")))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessage("Calls in flight of method greet to 127.0.0.1: 1 still after waiting 100 ms "
                            + "(expected: below actives=1; not sent, safe to retry) on injvm://127.0.0.1/x?actives=1&timeout=100");
            assertThat(provider.calls()).isEqualTo(1);
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(chain.invoke(Calls.greet("ada")).getValue()).isEqualTo("hello ada");
    }

    @Test
    void actives_permitsReturn_onThrownAndAnsweredExceptions() {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=200");
        Invoker<Greeter> chain = chain(provider);
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> chain.invoke(Calls.farewell("ada"))).isInstanceOf(RpcException.class)
                    .hasMessage("connection reset");
            assertThat(chain.invoke(Calls.read("/tmp")).hasException()).isTrue();
        }
        assertThat(chain.invoke(Calls.greet("ada")).getValue()).isEqualTo("hello ada");
    }

    @Test
    void actives_methodKeyOverridesServiceKey_andMethodsCountSeparately() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=5&greet.actives=1&timeout=100");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(3)) {
            threads.submit(() -> chain.invoke(Calls.greet("held")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            assertThatThrownBy(() -> chain.invoke(Calls.greet("ada")))
                    .hasMessageContaining("expected: below actives=1;");
            threads.submit(() -> chain.invoke(Calls.read("a")));
            threads.submit(() -> chain.invoke(Calls.read("b")));
            assertThat(held.awaitHeld(3, AWAIT)).as("held greet and both reads").isTrue();
            assertThat(provider.inFlight()).isEqualTo(3);
            held.releaseAll();
            threads.awaitAll();
        }
    }

    @Test
    void actives_eachReferredInvokerHasItsOwnPermits() throws Exception {
        FakeProvider<Greeter> first = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=100");
        HeldCalls firstHeld = first.holdCalls();
        FakeProvider<Greeter> second = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=100");
        Invoker<Greeter> firstChain = chain(first);
        try (Concurrently threads = new Concurrently(1)) {
            threads.submit(() -> firstChain.invoke(Calls.greet("held")));
            assertThat(firstHeld.awaitHeld(1, AWAIT)).isTrue();
            assertThat(chain(second).invoke(Calls.greet("ada")).getValue()).isEqualTo("hello ada");
            firstHeld.releaseAll();
            threads.awaitAll();
        }
    }

    @Test
    void actives_zero_meansNoLimit() throws Exception {
        PeakInFlight peak = PeakInFlight.around(GreeterProviders.GREETER);
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=0&timeout=100").answering(peak);
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(8)) {
            for (int i = 0; i < 8; i++) {
                threads.submit(() -> chain.invoke(Calls.greet("ada")));
            }
            assertThat(held.awaitHeld(8, AWAIT)).isTrue();
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(peak.peak()).isEqualTo(8);
    }

    @Test
    void actives_interruptedWhileWaiting_failsNotProcessed_andKeepsTheInterrupt() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=30000");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(2)) {
            threads.submit(() -> chain.invoke(Calls.greet("held")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            AtomicReference<Thread> waiter = new AtomicReference<>();
            Future<Boolean> interrupted = threads.submit(() -> {
                waiter.set(Thread.currentThread());
                try {
                    chain.invoke(Calls.greet("ada"));
                    return false;
                } catch (RpcException e) {
                    return e.isNotProcessed() && Thread.currentThread().isInterrupted();
                }
            });
            while (waiter.get() == null) {
                Thread.onSpinWait();
            }
            Thread.sleep(50);
            waiter.get().interrupt();
            assertThat(interrupted.get(10, TimeUnit.SECONDS)).isTrue();
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(provider.calls()).isEqualTo(1);
    }

    @Test
    void actives_waitIsBoundedByTheCallsTimeoutAttachment_beforeTheUrlKey() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=30000");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(1)) {
            threads.submit(() -> chain.invoke(Calls.greet("held")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            assertThatThrownBy(() -> chain.invoke(Calls.greet("ada").setAttachment("timeout", "60")))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessageContaining(": 1 still after waiting 60 ms");
            assertThatThrownBy(() -> chain.invoke(Calls.greet("ada").setAttachment("timeout", "soon")))
                    .isInstanceOf(RpcException.class)
                    .hasMessageStartingWith("attachment timeout: soon (expected: milliseconds > 0) for greet(java.lang.String)");
            held.releaseAll();
            threads.awaitAll();
        }
    }
    @Test
    void actives_timeoutAttachmentOfZeroOrLess_failsAsBadInput_notAsASafeRetry() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=30000");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(1)) {
            threads.submit(() -> chain.invoke(Calls.greet("held")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            for (String timeout : List.of("0", "-5")) {
                assertThatThrownBy(() -> chain.invoke(Calls.greet("ada").setAttachment("timeout", timeout)))
                        .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isFalse())
                        .hasMessageStartingWith("attachment timeout: " + timeout
                                + " (expected: milliseconds > 0) for greet(java.lang.String)");
            }
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(provider.calls()).isEqualTo(1);
    }

    @Test
    void actives_timeSpentWaitingForAPermit_comesOffTheCallsDeadline_notOnTopOfIt() throws Exception {
        FakeTicker ticker = new FakeTicker();
        try (ExtensionDirector timed = new ExtensionDirector(ActiveLimitFilterTest.class.getClassLoader(), ticker)) {
            FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=30000");
            HeldCalls held = provider.holdCalls();
            Invoker<Greeter> chain = FilterChain.consumer(provider, timed);
            RpcInvocation waiting = Calls.greet("waiting");
            AtomicReference<Object> answer = new AtomicReference<>();
            Thread first = new Thread(() -> chain.invoke(Calls.greet("held")));
            Thread second = new Thread(() -> answer.set(chain.invoke(waiting).getValue()));
            first.start();
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            second.start();
            long givenUp = System.nanoTime() + AWAIT.toNanos();
            while (second.getState() != Thread.State.TIMED_WAITING && System.nanoTime() < givenUp) {
                Thread.sleep(5);
            }
            assertThat(second.getState()).isEqualTo(Thread.State.TIMED_WAITING);
            ticker.advance(Duration.ofMillis(12_000));
            held.releaseAll();
            first.join(AWAIT.toMillis());
            second.join(AWAIT.toMillis());
            assertThat(answer).hasValue("hello waiting");
            // the attempt's deadline is what was left: 30 s from when the wait began, 18 s after it ended
            assertThat(provider.invocations().get(1).getCallOptions().deadline().timeRemaining(TimeUnit.MILLISECONDS))
                    .isEqualTo(18_000);
            assertThat(waiting.getAttachments()).isEmpty();
        }
    }

    /** {@code invocation} as a directory's view with {@code query} on top of the provider's URL hands it on. */
    private static Invocation viewed(FakeProvider<Greeter> provider, Invocation invocation, String query) {
        RpcInvocation viewed = RpcInvocation.copyOf(invocation);
        return viewed.setCallOptions(viewed.getCallOptions().withUrl(URL.valueOf(provider.getUrl().toFullString() + "&" + query)));
    }

    @Test
    void actives_fromTheViewUrl_limitsAChainWhoseReferUrlHasNone() throws Exception {
        // application=shop: the context filter, outermost, adds an attachment in place on the way
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?application=shop&timeout=30000");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(1)) {
            threads.submit(() -> chain.invoke(viewed(provider, Calls.greet("held"), "actives=1")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            Invocation call = viewed(provider, Calls.greet("ada"), "actives=1&timeout=80");
            assertThatThrownBy(() -> chain.invoke(call))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessage("Calls in flight of method greet to 127.0.0.1: 1 still after waiting 80 ms "
                            + "(expected: below actives=1; not sent, safe to retry) on " + call.getCallOptions().url());
            assertThat(provider.calls()).isEqualTo(1);
            held.releaseAll();
            threads.awaitAll();
        }
    }

    @Test
    void actives_raisedByTheView_admitsMore_andPermitsTakenUnderTheOldLimitAreReleased() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=80");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(3)) {
            threads.submit(() -> chain.invoke(Calls.greet("under the refer URL's limit")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            threads.submit(() -> chain.invoke(viewed(provider, Calls.greet("second"), "actives=3")));
            threads.submit(() -> chain.invoke(viewed(provider, Calls.greet("third"), "actives=3")));
            assertThat(held.awaitHeld(3, AWAIT)).as("3 in flight under actives=3").isTrue();
            assertThatThrownBy(() -> chain.invoke(viewed(provider, Calls.greet("fourth"), "actives=3")))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessageContaining(": 3 still after waiting 80 ms (expected: below actives=3;");
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(provider.calls()).isEqualTo(3);
        HeldCalls again = provider.holdCalls();
        try (Concurrently threads = new Concurrently(1)) {
            threads.submit(() -> chain.invoke(Calls.greet("held")));
            assertThat(again.awaitHeld(1, AWAIT)).isTrue();
            assertThatThrownBy(() -> chain.invoke(Calls.greet("ada")))
                    .as("every permit came back: the refer URL's limit of 1 is reached by one call only")
                    .hasMessageContaining(": 1 still after waiting 80 ms");
            again.releaseAll();
            threads.awaitAll();
        }
    }

    @Test
    void actives_loweredByTheView_admitsNobodyUntilEnoughCallsReturn() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=3&timeout=80");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(2)) {
            threads.submit(() -> chain.invoke(Calls.greet("a")));
            threads.submit(() -> chain.invoke(Calls.greet("b")));
            assertThat(held.awaitHeld(2, AWAIT)).isTrue();
            assertThatThrownBy(() -> chain.invoke(viewed(provider, Calls.greet("c"), "greet.actives=2")))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessageContaining(": 2 still after waiting 80 ms (expected: below actives=2;");
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(chain.invoke(viewed(provider, Calls.greet("d"), "greet.actives=2")).getValue()).isEqualTo("hello d");
        assertThat(provider.calls()).isEqualTo(3);
    }

    @Test
    void actives_removedByTheView_meansNoLimit_evenWhileTheReferUrlsLimitIsTaken() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=30000");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(4)) {
            threads.submit(() -> chain.invoke(Calls.greet("held")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            for (int i = 0; i < 3; i++) {
                threads.submit(() -> chain.invoke(viewed(provider, Calls.greet("free"), "actives=0")));
            }
            assertThat(held.awaitHeld(4, AWAIT)).as("the held call and 3 without a limit").isTrue();
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(provider.calls()).isEqualTo(4);
    }

    @Test
    void actives_stress_limitChangingBetweenCalls_neverExceedsTheLargest_andEveryPermitComesBack() throws Exception {
        PeakInFlight peak = PeakInFlight.around(GreeterProviders.working(Duration.ofMillis(1)));
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=3&timeout=30000").answering(peak);
        Invoker<Greeter> chain = chain(provider);
        String[] views = {"actives=1", "actives=2", "greet.actives=4"};
        AtomicInteger answered = new AtomicInteger();
        try (Concurrently threads = new Concurrently(16)) {
            for (int t = 0; t < 16; t++) {
                Random random = new Random(42 + t);
                threads.submit(() -> {
                    for (int i = 0; i < 40; i++) {
                        int pick = random.nextInt(views.length + 1);
                        Invocation call = pick == views.length ? Calls.greet("ada") : viewed(provider, Calls.greet("ada"), views[pick]);
                        assertThat(chain.invoke(call).getValue()).isEqualTo("hello ada");
                        answered.incrementAndGet();
                    }
                    return null;
                });
            }
            threads.awaitAll();
        }
        assertThat(answered).hasValue(640);
        assertThat(peak.peak()).isBetween(1, 4);

        HeldCalls held = provider.holdCalls();
        try (Concurrently threads = new Concurrently(1)) {
            threads.submit(() -> chain.invoke(viewed(provider, Calls.greet("held"), "actives=1")));
            assertThat(held.awaitHeld(1, AWAIT)).as("no permit left taken").isTrue();
            assertThatThrownBy(() -> chain.invoke(viewed(provider, Calls.greet("ada"), "actives=1&timeout=50")))
                    .hasMessageContaining(": 1 still after waiting 50 ms");
            held.releaseAll();
            threads.awaitAll();
        }
    }
}
