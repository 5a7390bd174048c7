package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.RpcException;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Async end to end through {@code Weft.export}/{@code refer}, over real weft sockets on 127.0.0.1
 * and over {@code injvm}: futures that return at once, providers that hold no thread while their
 * futures are pending, cancellation that reaches the provider, retry safety, and the call budget.
 */
class WeftAsyncTest {

    private static final long WAIT_SECONDS = 20;

    public interface Quotes {
        CompletableFuture<String> quote(String symbol);

        CompletionStage<Integer> count(int n);

        String sync(String name);

        String failing(String name);

        Unencodable unencodable();
    }

    /** A value Jackson cannot write: its getter throws. */
    public static final class Unencodable {
        public String getBroken() {
            throw new IllegalStateException("cannot be read");
        }
    }

    /** Answers each {@code quote} only when the test completes its future; counts every run. */
    static final class HeldQuotes implements Quotes {
        final Map<String, CompletableFuture<String>> pending = new ConcurrentHashMap<>();
        final AtomicInteger runs = new AtomicInteger();
        final AtomicReference<String> failingWith = new AtomicReference<>("none");

        @Override
        public CompletableFuture<String> quote(String symbol) {
            runs.incrementAndGet();
            CompletableFuture<String> future = new CompletableFuture<>();
            pending.put(symbol, future);
            return future;
        }

        @Override
        public CompletionStage<Integer> count(int n) {
            runs.incrementAndGet();
            return CompletableFuture.completedFuture(n * 2);
        }

        @Override
        public String sync(String name) {
            runs.incrementAndGet();
            return "sync " + name;
        }

        @Override
        public String failing(String name) {
            runs.incrementAndGet();
            throw new RpcException(RpcException.TIMEOUT_EXCEPTION, "the service's own timeout for " + name);
        }

        @Override
        public Unencodable unencodable() {
            runs.incrementAndGet();
            return new Unencodable();
        }
    }

    private static String export(Weft weft, Quotes impl, String parameters) {
        int port = weft.export(Quotes.class, impl, "weft://127.0.0.1:0?" + parameters).getInvoker().getUrl().getPort();
        return "weft://127.0.0.1:" + port;
    }

    @Test
    void asyncMethod_returnsAtOnce_andCompletesWithTheValue_decodedAsItsTypeArgument() throws Exception {
        HeldQuotes impl = new HeldQuotes();
        try (Weft weft = Weft.builder().build()) {
            Quotes quotes = weft.refer(Quotes.class, "url=" + export(weft, impl, "threads=4") + "&timeout=10000");

            CompletableFuture<String> future = quotes.quote("WEFT");
            assertThat(future).isNotDone();
            waitUntil(() -> impl.pending.containsKey("WEFT"));
            impl.pending.get("WEFT").complete("42.0");

            assertThat(future.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("42.0");
            assertThat(quotes.count(21).toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo(42);
            assertThat(quotes.sync("ada")).isEqualTo("sync ada");
        }
    }

    @Test
    void providerWithFourThreads_holdsAThousandPendingImplementations_andOneCallerThreadKeepsThemInFlight() throws Exception {
        HeldQuotes impl = new HeldQuotes();
        int calls = 1000;
        try (Weft weft = Weft.builder().build()) {
            // one consumer connection: connection-calls (default 64) bounds how many of its calls the provider holds
            Quotes quotes = weft.refer(Quotes.class, "url=" + export(weft, impl, "threads=4&queues=2000&connection-calls=2000")
                    + "&timeout=30000");
            quotes.count(1).toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS); // connected and warm
            int threadsBefore = Thread.activeCount();

            List<CompletableFuture<String>> futures = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                futures.add(quotes.quote("S" + i));
            }
            waitUntil(() -> impl.pending.size() == calls);
            assertThat(futures).allMatch(future -> !future.isDone());
            assertThat(Thread.activeCount() - threadsBefore).as("threads added while %d calls are pending", calls).isLessThan(20);

            AtomicInteger completions = new AtomicInteger();
            futures.forEach(future -> future.whenComplete((value, failure) -> completions.incrementAndGet()));
            impl.pending.forEach((symbol, future) -> future.complete("q-" + symbol));
            for (int i = 0; i < calls; i++) {
                assertThat(futures.get(i).get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("q-S" + i);
            }
            waitUntil(() -> completions.get() == calls);
            assertThat(completions).as("every future completes exactly once").hasValue(calls);
        }
    }

    @Test
    void cancellingTheCallersFuture_cancelsTheImplementationsFuture_andTheCallIsNotRetried() throws Exception {
        HeldQuotes first = new HeldQuotes();
        HeldQuotes second = new HeldQuotes();
        try (Weft weft = Weft.builder().build()) {
            String urls = export(weft, first, "threads=4") + "," + export(weft, second, "threads=4");
            Quotes quotes = weft.refer(Quotes.class, Map.of("url", urls, "timeout", "20000", "retries", "3"));

            CompletableFuture<String> future = quotes.quote("GONE");
            waitUntil(() -> first.pending.containsKey("GONE") || second.pending.containsKey("GONE"));
            CompletableFuture<String> atProvider = first.pending.containsKey("GONE")
                    ? first.pending.get("GONE") : second.pending.get("GONE");

            assertThat(future.cancel(true)).isTrue();
            assertThatThrownBy(() -> future.get(1, TimeUnit.SECONDS)).isInstanceOf(CancellationException.class);
            waitUntil(atProvider::isCancelled);
            Thread.sleep(200); // a retry, if one were made, would reach a provider by now
            assertThat(first.runs.get() + second.runs.get()).as("runs of the cancelled call").isEqualTo(1);
        }
    }

    @Test
    void forking_theFirstAnswerWins_andTheLosingForksImplementationIsCancelledAtItsProvider() throws Exception {
        HeldQuotes first = new HeldQuotes();
        HeldQuotes second = new HeldQuotes();
        try (Weft weft = Weft.builder().build()) {
            String urls = export(weft, first, "threads=4") + "," + export(weft, second, "threads=4");
            Quotes quotes = weft.refer(Quotes.class, Map.of("url", urls, "cluster", "forking", "forks", "2", "timeout", "20000"));
            // forks go to providers available now: wait until both connections are up (each answered a call)
            waitUntil(() -> {
                quotes.count(1).toCompletableFuture().join();
                return first.runs.get() > 0 && second.runs.get() > 0;
            });

            CompletableFuture<String> future = quotes.quote("RACE");
            waitUntil(() -> first.pending.containsKey("RACE") && second.pending.containsKey("RACE"));
            first.pending.get("RACE").complete("first");

            assertThat(future.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("first");
            CompletableFuture<String> loser = second.pending.get("RACE");
            waitUntil(loser::isCancelled);
            assertThat(first.pending.get("RACE")).isCompletedWithValue("first");
        }
    }

    @Test
    void actives_asyncCallsOverTheLimit_waitHoldingNoThread_andEachStartsWhenAPermitComesBack() throws Exception {
        HeldQuotes impl = new HeldQuotes();
        int calls = 1000;
        try (Weft weft = Weft.builder().build()) {
            Quotes quotes = weft.refer(Quotes.class, "url=" + export(weft, impl, "threads=4") + "&actives=2&timeout=30000");
            quotes.count(1).toCompletableFuture().get(WAIT_SECONDS, TimeUnit.SECONDS); // connected and warm
            int threadsBefore = Thread.activeCount();

            List<CompletableFuture<String>> futures = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                futures.add(quotes.quote("S" + i));
            }
            waitUntil(() -> impl.pending.size() == 2);
            Thread.sleep(100); // a third call, if one were let through, would reach the provider by now
            assertThat(impl.pending).as("calls at the provider under actives=2").hasSize(2);
            assertThat(futures).noneMatch(CompletableFuture::isDone);
            assertThat(Thread.activeCount() - threadsBefore).as("threads added while %d calls wait", calls).isLessThan(10);

            for (int i = 0; i < calls; i++) {
                String symbol = "S" + i;
                waitUntil(() -> impl.pending.containsKey(symbol)); // first come, first served
                impl.pending.get(symbol).complete("q-" + symbol);
                assertThat(futures.get(i).get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("q-" + symbol);
            }
            assertThat(impl.runs.get()).isEqualTo(calls + 1);
        }
    }

    @Test
    void serviceThrowingRpcExceptionWithTimeoutCode_reachesTheCallerOnce_asItsOwnException() {
        HeldQuotes first = new HeldQuotes();
        HeldQuotes second = new HeldQuotes();
        try (Weft weft = Weft.builder().build()) {
            String urls = export(weft, first, "") + "," + export(weft, second, "");
            Quotes quotes = weft.refer(Quotes.class, Map.of("url", urls, "retries", "2", "timeout", "5000"));

            assertThatThrownBy(() -> quotes.failing("ada"))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                    .hasMessageContaining("the service's own timeout for ada");
            assertThat(first.runs.get() + second.runs.get()).as("runs under retries=2").isEqualTo(1);
        }
    }

    @Test
    void answerTheProviderCannotEncode_reachesTheCallerOnce_asASerializationFailure() {
        HeldQuotes first = new HeldQuotes();
        HeldQuotes second = new HeldQuotes();
        try (Weft weft = Weft.builder().build()) {
            String urls = export(weft, first, "") + "," + export(weft, second, "");
            Quotes quotes = weft.refer(Quotes.class, Map.of("url", urls, "retries", "2", "timeout", "5000"));

            assertThatThrownBy(quotes::unencodable)
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isSerialization()).isTrue());
            assertThat(first.runs.get() + second.runs.get()).as("runs under retries=2").isEqualTo(1);
        }
    }

    @Test
    void callTimeout_boundsEveryAttemptTogether_andTheDeadlineTravelsToTheProvider() throws Exception {
        HeldQuotes first = new HeldQuotes();
        HeldQuotes second = new HeldQuotes();
        try (Weft weft = Weft.builder().build()) {
            String urls = export(weft, first, "") + "," + export(weft, second, "");
            Quotes quotes = weft.refer(Quotes.class, Map.of("url", urls, "retries", "5", "timeout", "300", "call-timeout", "500"));

            long started = System.nanoTime();
            CompletableFuture<String> future = quotes.quote("SLOW");
            Throwable failure = catchCause(future);
            long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

            assertThat(failure).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue());
            assertThat(elapsedMillis).as("one budget over all attempts").isGreaterThanOrEqualTo(450).isLessThan(2_000);
            assertThat(first.runs.get() + second.runs.get()).as("attempts within 500 ms of 300 ms each").isEqualTo(2);
            // the provider abandons work past the deadline it was sent: each pending future is cancelled
            waitUntil(() -> first.pending.values().stream().allMatch(CompletableFuture::isCancelled)
                    && second.pending.values().stream().allMatch(CompletableFuture::isCancelled));
        }
    }

    @Test
    void callbacksOnTheCallersFuture_neverRunOnANettyThread() throws Exception {
        HeldQuotes impl = new HeldQuotes();
        try (Weft weft = Weft.builder().build()) {
            Quotes quotes = weft.refer(Quotes.class, "url=" + export(weft, impl, "") + "&timeout=10000");
            List<String> threads = new ArrayList<>();
            List<CompletableFuture<?>> callbacks = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                callbacks.add(quotes.count(i).toCompletableFuture().thenAccept(n -> {
                    synchronized (threads) {
                        threads.add(Thread.currentThread().getName());
                    }
                }));
            }
            CompletableFuture.allOf(callbacks.toArray(new CompletableFuture<?>[0])).get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(threads).hasSize(20).noneMatch(name -> name.startsWith("weft-client") || name.startsWith("weft-server"));
        }
    }

    @Test
    void injvm_asyncImplementation_returnsAtOnce_andCompletesWhenTheImplementationDoes() throws Exception {
        HeldQuotes impl = new HeldQuotes();
        try (Weft weft = Weft.builder().build()) {
            weft.export(Quotes.class, impl, "injvm://127.0.0.1/" + Quotes.class.getName());
            Quotes quotes = weft.refer(Quotes.class, "url=injvm://127.0.0.1/" + Quotes.class.getName());

            CompletableFuture<String> future = quotes.quote("LOCAL");
            assertThat(future).isNotDone();
            impl.pending.get("LOCAL").complete("7");
            assertThat(future.get(WAIT_SECONDS, TimeUnit.SECONDS)).isEqualTo("7");

            CompletableFuture<String> cancelled = quotes.quote("DROP");
            cancelled.cancel(true);
            assertThat(impl.pending.get("DROP").isCancelled()).as("cancel reaches an in-process implementation").isTrue();
        }
    }

    private static Throwable catchCause(CompletableFuture<?> future) throws Exception {
        try {
            future.get(WAIT_SECONDS, TimeUnit.SECONDS);
            return null;
        } catch (ExecutionException e) {
            return e.getCause();
        }
    }

    private static void waitUntil(java.util.function.BooleanSupplier condition) throws InterruptedException {
        long giveUp = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_SECONDS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > giveUp) {
                throw new AssertionError("condition not met within " + WAIT_SECONDS + " s");
            }
            Thread.sleep(5);
        }
    }
}
