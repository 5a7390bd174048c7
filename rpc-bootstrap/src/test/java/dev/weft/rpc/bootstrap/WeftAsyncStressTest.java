package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.RpcException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Many threads mixing sync and async calls while one of two providers is killed and restarted on
 * its port: every call ends exactly once (an answer or an {@link RpcException}), nothing is left
 * pending, and calls succeed again once the provider is back. Bounded in time (a few seconds of
 * load) and in count.
 */
class WeftAsyncStressTest {

    public interface Echo {
        String echo(String text);

        CompletableFuture<String> echoAsync(String text);
    }

    static final class EchoImpl implements Echo {
        @Override
        public String echo(String text) {
            return text;
        }

        @Override
        public CompletableFuture<String> echoAsync(String text) {
            return CompletableFuture.supplyAsync(() -> text);
        }
    }

    /** One async call and how many times its future ended. */
    private record Tracked(String text, CompletableFuture<String> future, AtomicInteger ends) {
    }

    @Test
    void mixedSyncAndAsyncCalls_whileAProviderIsKilledAndRestarted_everyCallEndsExactlyOnce() throws Exception {
        int threads = 8;
        long loadMillis = 3_000;
        try (Weft stable = Weft.builder().build(); Weft consumer = Weft.builder().build()) {
            int stablePort = stable.export(Echo.class, new EchoImpl(), "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
            Weft flaky = Weft.builder().build();
            int flakyPort = flaky.export(Echo.class, new EchoImpl(), "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
            Echo echo = consumer.refer(Echo.class, Map.of("url", "weft://127.0.0.1:" + stablePort + ",weft://127.0.0.1:" + flakyPort,
                    "timeout", "2000", "retries", "2", "check", "false"));

            ConcurrentLinkedQueue<Tracked> asyncCalls = new ConcurrentLinkedQueue<>();
            AtomicInteger syncAnswers = new AtomicInteger();
            AtomicInteger syncFailures = new AtomicInteger();
            AtomicInteger wrongAnswers = new AtomicInteger();
            long endAt = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(loadMillis);
            ExecutorService callers = Executors.newFixedThreadPool(threads);
            try {
                for (int t = 0; t < threads; t++) {
                    int thread = t;
                    callers.submit(() -> {
                        int i = 0;
                        while (System.nanoTime() < endAt && i < 20_000) {
                            String text = thread + "-" + i++;
                            if (i % 2 == 0) {
                                try {
                                    if (!echo.echo(text).equals(text)) {
                                        wrongAnswers.incrementAndGet();
                                    }
                                    syncAnswers.incrementAndGet();
                                } catch (RpcException e) {
                                    syncFailures.incrementAndGet();
                                }
                            } else {
                                AtomicInteger ends = new AtomicInteger();
                                CompletableFuture<String> future = echo.echoAsync(text);
                                future.whenComplete((value, failure) -> ends.incrementAndGet());
                                asyncCalls.add(new Tracked(text, future, ends));
                            }
                        }
                    });
                }
                Thread.sleep(loadMillis / 3);
                flaky.close(); // the provider goes away mid-load
                Thread.sleep(loadMillis / 6);
                try (Weft restarted = Weft.builder().build()) {
                    restarted.export(Echo.class, new EchoImpl(), "weft://127.0.0.1:" + flakyPort);
                    callers.shutdown();
                    assertThat(callers.awaitTermination(60, TimeUnit.SECONDS)).as("callers finished").isTrue();

                    CompletableFuture.allOf(asyncCalls.stream().map(Tracked::future).toArray(CompletableFuture<?>[]::new))
                            .exceptionally(failure -> null).get(30, TimeUnit.SECONDS);
                    assertThat(echo.echoAsync("after").get(10, TimeUnit.SECONDS)).isEqualTo("after");
                }
            } finally {
                callers.shutdownNow();
            }

            List<Tracked> calls = List.copyOf(asyncCalls);
            assertThat(calls).isNotEmpty().allMatch(call -> call.future().isDone());
            Thread.sleep(100); // let the last whenComplete actions run
            assertThat(calls).allMatch(call -> call.ends().get() == 1, "every async call ended exactly once");
            long asyncAnswered = calls.stream().filter(call -> !call.future().isCompletedExceptionally()).count();
            assertThat(calls.stream().filter(call -> !call.future().isCompletedExceptionally())
                    .allMatch(call -> call.future().join().equals(call.text()))).as("each answer is its own call's").isTrue();
            assertThat(wrongAnswers).hasValue(0);
            assertThat(syncAnswers.get() + asyncAnswered).as("most calls answered despite the kill").isGreaterThan(
                    (syncFailures.get() + calls.size() - asyncAnswered));
        }
    }
}
