package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PeakInFlightTest {

    private static final Invocation GREET = Invocations.of(Greeting.class, "greet", "ada");

    private final ExecutorService callers = Executors.newFixedThreadPool(8);

    @AfterEach
    void stopCallers() throws InterruptedException {
        callers.shutdownNow();
        assertThat(callers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    @Test
    void sequentialCalls_peakAtOne_andTheInnerReplyAnswers() {
        PeakInFlight peak = PeakInFlight.around(Reply.value("ok"));
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a").answering(peak);

        assertThat(peak.peak()).isZero();
        for (int i = 0; i < 5; i++) {
            assertThat(a.invoke(GREET).getValue()).isEqualTo("ok");
        }

        assertThat(peak.peak()).isEqualTo(1);
        assertThat(peak).hasToString("PeakInFlight[1]");
    }

    @Test
    void callsHeldTogether_countTogether() throws Exception {
        PeakInFlight peak = PeakInFlight.around(Reply.providerName());
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a").answering(peak);
        List<Future<Object>> calls = new ArrayList<>();
        try (HeldCalls held = a.holdCalls()) {
            for (int i = 0; i < 5; i++) {
                calls.add(callers.submit(() -> a.invoke(GREET).getValue()));
            }
            held.awaitHeld(5);
            assertThat(peak.peak()).as("nothing replied yet").isZero();
        }
        for (Future<Object> call : calls) {
            assertThat(call.get(30, TimeUnit.SECONDS)).isEqualTo("a");
        }

        assertThat(peak.peak()).isEqualTo(5);
    }

    @Test
    void stress_throughALimitOfThree_neverExceedsIt() throws Exception {
        Semaphore limit = new Semaphore(3);
        PeakInFlight peak = PeakInFlight.around((invocation, provider) -> {
            sleep(Duration.ofMillis(1));
            return Reply.providerName().reply(invocation, provider);
        });
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a").answering(peak);
        List<Future<?>> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            threads.add(callers.submit(() -> {
                for (int i = 0; i < 25; i++) {
                    limit.acquireUninterruptibly();
                    try {
                        a.invoke(GREET);
                    } finally {
                        limit.release();
                    }
                }
            }));
        }
        for (Future<?> thread : threads) {
            thread.get(60, TimeUnit.SECONDS);
        }

        assertThat(a.calls()).isEqualTo(200);
        assertThat(peak.peak()).isBetween(1, 3);
    }

    @Test
    void failingInnerReply_isStillCounted_andItsFailurePassesThrough() {
        PeakInFlight peak = PeakInFlight.around(Reply.networkError());
        FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a").answering(peak);

        assertThatThrownBy(() -> a.invoke(GREET)).hasMessage("scripted network failure at fake provider a (method greet)");

        assertThat(peak.peak()).isEqualTo(1);
    }

    @Test
    void nullReply_isRefused() {
        assertThatThrownBy(() -> PeakInFlight.around(null)).isInstanceOf(NullPointerException.class).hasMessage("reply");
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
