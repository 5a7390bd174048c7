package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.ThreadlessExecutor;
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
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static dev.weft.rpc.testing.Calls.await;
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

    /** The call, waited for as a sync caller would (at most 10 s). */
    private static Result call(Invoker<Greeter> chain, Invocation invocation) {
        return await(chain.invoke(invocation));
    }

    /** The answers of the calls {@link #later()} holds, oldest first. */
    private final Queue<AsyncResult> pendingAnswers = new ConcurrentLinkedQueue<>();

    /** Answers later, holding no thread: a pending result the test completes from {@link #pendingAnswers}. */
    private Reply later() {
        return (invocation, provider) -> {
            AsyncResult answer = AsyncResult.pending();
            pendingAnswers.add(answer);
            return answer;
        };
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
                        assertThat(call(chain, Calls.greet("ada")).getValue()).isEqualTo("hello ada");
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
                results.add(threads.submit(() -> call(chain, Calls.greet("ada")).getValue()));
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
            threads.submit(() -> call(chain, Calls.greet("held")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            assertThatThrownBy(() -> call(chain, Calls.greet("ada")))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessage("Calls in flight of method greet to 127.0.0.1: 1 still after waiting 100 ms "
                            + "(expected: below actives=1; not sent, safe to retry) on injvm://127.0.0.1/x?actives=1&timeout=100");
            assertThat(provider.calls()).isEqualTo(1);
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(call(chain, Calls.greet("ada")).getValue()).isEqualTo("hello ada");
    }

    @Test
    void actives_permitsReturn_onThrownAndAnsweredExceptions() {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=200");
        Invoker<Greeter> chain = chain(provider);
        for (int i = 0; i < 5; i++) {
            assertThatThrownBy(() -> call(chain, Calls.farewell("ada"))).isInstanceOf(RpcException.class)
                    .hasMessage("connection reset");
            assertThat(call(chain, Calls.read("/tmp")).hasException()).isTrue();
        }
        assertThat(call(chain, Calls.greet("ada")).getValue()).isEqualTo("hello ada");
    }

    @Test
    void actives_methodKeyOverridesServiceKey_andMethodsCountSeparately() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=5&greet.actives=1&timeout=100");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(3)) {
            threads.submit(() -> call(chain, Calls.greet("held")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            assertThatThrownBy(() -> call(chain, Calls.greet("ada")))
                    .hasMessageContaining("expected: below actives=1;");
            threads.submit(() -> call(chain, Calls.read("a")));
            threads.submit(() -> call(chain, Calls.read("b")));
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
            threads.submit(() -> call(firstChain, Calls.greet("held")));
            assertThat(firstHeld.awaitHeld(1, AWAIT)).isTrue();
            assertThat(call(chain(second), Calls.greet("ada")).getValue()).isEqualTo("hello ada");
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
                threads.submit(() -> call(chain, Calls.greet("ada")));
            }
            assertThat(held.awaitHeld(8, AWAIT)).isTrue();
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(peak.peak()).isEqualTo(8);
    }

    @Test
    void actives_aWaitingCallItsCallerCancels_leavesTheQueueAtOnce_failsCancelled_andNeverReachesTheProvider() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=30000");
        Invoker<Greeter> chain = chain(provider.answering(later()));
        Result held = chain.invoke(Calls.greet("held"));
        RpcInvocation call = Calls.greet("ada");
        Cancellation cancellation = Cancellation.create();
        call.setCallOptions(call.getCallOptions().withCancellation(cancellation));
        Result waiting = chain.invoke(call);
        Result next = chain.invoke(Calls.greet("next"));
        assertThat(waiting.isDone()).isFalse();

        cancellation.cancel();

        assertThat(waiting.isDone()).as("ended on the cancelling thread").isTrue();
        assertThatThrownBy(() -> await(waiting))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isCancelled()).isTrue())
                .hasMessage("Call of method greet cancelled by its caller while waiting for a permit (actives; not sent)");
        pendingAnswers.poll().complete(RpcResult.of("held done"));
        assertThat(await(held).getValue()).isEqualTo("held done");
        assertThat(provider.invocations()).extracting(i -> i.getArguments()[0]).as("the cancelled call was skipped")
                .containsExactly("held", "next");
        pendingAnswers.poll().complete(RpcResult.of("next done"));
        assertThat(await(next).getValue()).isEqualTo("next done");
    }

    @Test
    void actives_waitIsBoundedByTheCallsTimeoutAttachment_beforeTheUrlKey() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=30000");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(1)) {
            threads.submit(() -> call(chain, Calls.greet("held")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            assertThatThrownBy(() -> call(chain, Calls.greet("ada").setAttachment("timeout", "60")))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessageContaining(": 1 still after waiting 60 ms");
            assertThatThrownBy(() -> call(chain, Calls.greet("ada").setAttachment("timeout", "soon")))
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
            threads.submit(() -> call(chain, Calls.greet("held")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            for (String timeout : List.of("0", "-5")) {
                assertThatThrownBy(() -> call(chain, Calls.greet("ada").setAttachment("timeout", timeout)))
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
            FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=30000").answering(later());
            Invoker<Greeter> chain = FilterChain.consumer(provider, timed);
            Result held = chain.invoke(Calls.greet("held"));
            RpcInvocation waiting = Calls.greet("waiting");
            Result second = chain.invoke(waiting);
            assertThat(second.isDone()).as("waits for a permit").isFalse();

            ticker.advance(Duration.ofMillis(12_000));
            pendingAnswers.poll().complete(RpcResult.of("first"));

            assertThat(await(held).getValue()).isEqualTo("first");
            assertThat(provider.calls()).isEqualTo(2);
            // the attempt's deadline is what was left: 30 s from when the wait began, 18 s after it ended
            assertThat(provider.invocations().get(1).getCallOptions().deadline().timeRemaining(TimeUnit.MILLISECONDS))
                    .isEqualTo(18_000);
            assertThat(waiting.getAttachments()).isEmpty();
            pendingAnswers.poll().complete(RpcResult.of("second"));
            assertThat(await(second).getValue()).isEqualTo("second");
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
            threads.submit(() -> call(chain, viewed(provider, Calls.greet("held"), "actives=1")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            Invocation call = viewed(provider, Calls.greet("ada"), "actives=1&timeout=80");
            assertThatThrownBy(() -> call(chain, call))
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
            threads.submit(() -> call(chain, Calls.greet("under the refer URL's limit")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            threads.submit(() -> call(chain, viewed(provider, Calls.greet("second"), "actives=3")));
            threads.submit(() -> call(chain, viewed(provider, Calls.greet("third"), "actives=3")));
            assertThat(held.awaitHeld(3, AWAIT)).as("3 in flight under actives=3").isTrue();
            assertThatThrownBy(() -> call(chain, viewed(provider, Calls.greet("fourth"), "actives=3")))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessageContaining(": 3 still after waiting 80 ms (expected: below actives=3;");
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(provider.calls()).isEqualTo(3);
        HeldCalls again = provider.holdCalls();
        try (Concurrently threads = new Concurrently(1)) {
            threads.submit(() -> call(chain, Calls.greet("held")));
            assertThat(again.awaitHeld(1, AWAIT)).isTrue();
            assertThatThrownBy(() -> call(chain, Calls.greet("ada")))
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
            threads.submit(() -> call(chain, Calls.greet("a")));
            threads.submit(() -> call(chain, Calls.greet("b")));
            assertThat(held.awaitHeld(2, AWAIT)).isTrue();
            assertThatThrownBy(() -> call(chain, viewed(provider, Calls.greet("c"), "greet.actives=2")))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessageContaining(": 2 still after waiting 80 ms (expected: below actives=2;");
            held.releaseAll();
            threads.awaitAll();
        }
        assertThat(call(chain, viewed(provider, Calls.greet("d"), "greet.actives=2")).getValue()).isEqualTo("hello d");
        assertThat(provider.calls()).isEqualTo(3);
    }

    @Test
    void actives_removedByTheView_meansNoLimit_evenWhileTheReferUrlsLimitIsTaken() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=30000");
        HeldCalls held = provider.holdCalls();
        Invoker<Greeter> chain = chain(provider);
        try (Concurrently threads = new Concurrently(4)) {
            threads.submit(() -> call(chain, Calls.greet("held")));
            assertThat(held.awaitHeld(1, AWAIT)).isTrue();
            for (int i = 0; i < 3; i++) {
                threads.submit(() -> call(chain, viewed(provider, Calls.greet("free"), "actives=0")));
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
                        assertThat(call(chain, call).getValue()).isEqualTo("hello ada");
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
            threads.submit(() -> call(chain, viewed(provider, Calls.greet("held"), "actives=1")));
            assertThat(held.awaitHeld(1, AWAIT)).as("no permit left taken").isTrue();
            assertThatThrownBy(() -> call(chain, viewed(provider, Calls.greet("ada"), "actives=1&timeout=50")))
                    .hasMessageContaining(": 1 still after waiting 50 ms");
            held.releaseAll();
            threads.awaitAll();
        }
    }

    @Test
    void actives_tenThousandAsyncCallsOverTheLimit_fromOneThread_parkNoThread_andStartFirstComeFirstServed() {
        int limit = 2;
        int calls = 10_000 + limit;
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=" + limit + "&timeout=60000").answering(later());
        Invoker<Greeter> chain = chain(provider);
        Result warm = chain.invoke(Calls.greet("warm"));
        pendingAnswers.poll().complete(RpcResult.of("warm"));
        assertThat(await(warm).getValue()).isEqualTo("warm");
        int threadsBefore = Thread.activeCount();

        List<Result> results = new ArrayList<>(calls);
        for (int i = 0; i < calls; i++) {
            results.add(chain.invoke(Calls.greet("c" + i))); // returns at once: waiting holds no thread
        }

        assertThat(results).noneMatch(Result::isDone);
        assertThat(provider.calls()).as("the warm-up call and %d admitted", limit).isEqualTo(1 + limit);
        assertThat(Thread.activeCount() - threadsBefore).as("threads added by %d waiting calls (the timer's)", calls).isLessThanOrEqualTo(1);
        for (int answered = 0; answered < calls; answered++) {
            AsyncResult next = pendingAnswers.poll();
            assertThat(next).as("a call in flight after %d answers", answered).isNotNull();
            next.complete(RpcResult.of("a" + answered)); // returns a permit: the first waiting call starts
        }
        assertThat(pendingAnswers).isEmpty();
        assertThat(results).allMatch(Result::isDone);
        assertThat(provider.invocations().subList(1, 1 + calls)).extracting(invocation -> invocation.getArguments()[0])
                .as("started in the order they were made")
                .containsExactlyElementsOf(java.util.stream.IntStream.range(0, calls).mapToObj(i -> "c" + i).toList());
        assertEveryPermitFree(chain, provider, limit);
    }

    @Test
    void actives_waitingCalls_failNotProcessedAtTheirDeadline_eachOnce_withoutReachingTheProvider() {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=200").answering(later());
        Invoker<Greeter> chain = chain(provider);
        Result held = chain.invoke(Calls.greet("held"));
        AtomicInteger ended = new AtomicInteger();
        long started = System.nanoTime();
        List<Result> waiting = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            waiting.add(chain.invoke(Calls.greet("w" + i)).whenComplete((result, failure) -> ended.incrementAndGet()));
        }

        for (Result result : waiting) {
            assertThatThrownBy(() -> await(result))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                    .hasMessageContaining(": 1 still after waiting 200 ms");
        }
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(waitedMillis).as("the wait lasts the deadline").isBetween(150L, 9_000L);
        assertThat(ended).as("each waiting call ended once").hasValue(100);
        assertThat(provider.calls()).isEqualTo(1);
        pendingAnswers.poll().complete(RpcResult.of("held done"));
        assertThat(await(held).getValue()).isEqualTo("held done");
        assertEveryPermitFree(chain, provider, 1);
    }

    @Test
    void actives_anAsyncCallWhoseWaitExpires_endsOffTheTimerThread_soABlockingCallbackDelaysNoOtherDeadline() throws Exception {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=200").answering(later());
        Invoker<Greeter> chain = chain(provider);
        chain.invoke(Calls.greet("held"));
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> blockingCallbackThread = new CompletableFuture<>();
        chain.invoke(Calls.greet("first")).whenComplete((result, failure) -> {
            blockingCallbackThread.complete(Thread.currentThread().getName());
            try {
                release.await(10, TimeUnit.SECONDS); // a caller's callback that blocks
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        CompletableFuture<String> secondEndedOn = new CompletableFuture<>();
        chain.invoke(Calls.greet("second")).whenComplete((result, failure) -> secondEndedOn.complete(Thread.currentThread().getName()));
        try {
            assertThat(secondEndedOn.get(5, TimeUnit.SECONDS)).as("the second call ended at its own deadline")
                    .startsWith("weft-actives-callback-");
            assertThat(blockingCallbackThread.get(5, TimeUnit.SECONDS)).startsWith("weft-actives-callback-");
        } finally {
            release.countDown();
        }
        assertThat(provider.calls()).isEqualTo(1);
    }

    @Test
    void actives_closingTheDirector_failsTheWaitingCallsAtOnce() {
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=1&timeout=60000").answering(later());
        Invoker<Greeter> chain = chain(provider);
        chain.invoke(Calls.greet("held"));
        Result waiting = chain.invoke(Calls.greet("waiting"));

        director.close();

        assertThat(waiting.isDone()).isTrue();
        assertThatThrownBy(() -> await(waiting))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue())
                .hasMessage("Call of method greet waiting for a permit (actives) refused: its extension director closed (not sent)");
        assertThat(provider.calls()).isEqualTo(1);
    }

    /**
     * Many threads, sync calls (waited for on the caller's thread, as the proxy does) and async ones,
     * answers that come at once, later, as failures or thrown, calls that time out waiting and calls
     * cancelled: every call ends exactly once, and afterwards every permit is back.
     */
    @Test
    void actives_stress_mixedSyncAndAsync_everyCallEndsOnce_andNoPermitLeaks() throws Exception {
        int limit = 4;
        int threads = 12;
        int callsEach = 300;
        Queue<AsyncResult> toComplete = new ConcurrentLinkedQueue<>();
        Reply mixed = (invocation, provider) -> switch ((String) invocation.getArguments()[0]) {
            case "now" -> RpcResult.of("hello now");
            case "thrown" -> throw new RpcException(RpcException.NETWORK_EXCEPTION, "connection reset");
            case "failed" -> AsyncResult.failed(new RpcException(RpcException.NETWORK_EXCEPTION, "connection reset later"));
            default -> {
                AsyncResult answer = AsyncResult.pending();
                toComplete.add(answer);
                yield answer;
            }
        };
        FakeProvider<Greeter> provider = GreeterProviders.at("injvm://127.0.0.1/x?actives=" + limit + "&timeout=5000").answering(mixed);
        Invoker<Greeter> chain = chain(provider);
        AtomicInteger endings = new AtomicInteger();
        AtomicInteger stop = new AtomicInteger();
        Thread completer = new Thread(() -> {
            while (stop.get() == 0 || !toComplete.isEmpty()) {
                AsyncResult answer = toComplete.poll();
                if (answer == null) {
                    Thread.onSpinWait();
                    Thread.yield();
                } else {
                    answer.complete(RpcResult.of("hello later"));
                }
            }
        }, "completer");
        completer.start();
        List<Result> asyncResults = java.util.Collections.synchronizedList(new ArrayList<>());
        String[] modes = {"now", "later", "later", "thrown", "failed"};
        try (Concurrently callers = new Concurrently(threads)) {
            for (int t = 0; t < threads; t++) {
                Random random = new Random(7 + t);
                callers.submit(() -> {
                    for (int i = 0; i < callsEach; i++) {
                        RpcInvocation call = Calls.greet(modes[random.nextInt(modes.length)]);
                        if (random.nextInt(10) == 0) {
                            call.setAttachment("timeout", "2"); // may give up waiting
                        }
                        Cancellation cancellation = Cancellation.create();
                        boolean sync = random.nextBoolean();
                        ThreadlessExecutor executor = sync ? new ThreadlessExecutor(Runnable::run) : null;
                        call.setCallOptions(call.getCallOptions().withCancellation(cancellation).withExecutor(executor));
                        Result result;
                        try {
                            result = chain.invoke(call);
                        } catch (RpcException thrown) {
                            endings.incrementAndGet(); // failed at return: ends here, once
                            continue;
                        }
                        result = result.whenComplete((answer, failure) -> endings.incrementAndGet());
                        if (sync) {
                            executor.await(result, cancellation);
                        } else {
                            asyncResults.add(result);
                            if (random.nextInt(8) == 0) {
                                cancellation.cancel();
                            }
                        }
                    }
                    return null;
                });
            }
            callers.awaitAll();
        }
        for (Result result : List.copyOf(asyncResults)) {
            try {
                await(result, Duration.ofSeconds(20)); // fails the test if the call is still pending then
            } catch (RpcException failed) {
                assertThat(failed.getCode()).isIn(RpcException.NETWORK_EXCEPTION, RpcException.NOT_PROCESSED, RpcException.CANCELLED);
            }
        }
        stop.set(1);
        completer.join(10_000);
        Thread.sleep(50); // a second ending, if one were to come, would come by now
        assertThat(endings).as("every call ended exactly once").hasValue(threads * callsEach);
        assertEveryPermitFree(chain, provider, limit);
    }

    /** Exactly {@code limit} calls are admitted at once and the next one waits: every permit taken was returned, none twice. */
    private void assertEveryPermitFree(Invoker<Greeter> chain, FakeProvider<Greeter> provider, int limit) {
        provider.answering(later());
        pendingAnswers.clear();
        int before = provider.calls();
        List<Result> held = new ArrayList<>();
        for (int i = 0; i < limit; i++) {
            held.add(chain.invoke(Calls.greet("free " + i)));
        }
        assertThat(provider.calls() - before).as("calls admitted at once under actives=%d", limit).isEqualTo(limit);
        Result over = chain.invoke(Calls.greet("over").setAttachment("timeout", "50"));
        assertThatThrownBy(() -> await(over)).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isNotProcessed()).isTrue());
        assertThat(provider.calls() - before).as("the call over the limit was not sent").isEqualTo(limit);
        pendingAnswers.forEach(answer -> answer.complete(RpcResult.of("done")));
        held.forEach(result -> assertThat(await(result).getValue()).isEqualTo("done"));
    }
}
