package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.RpcException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HeldCallsTest {

    private static final Invocation GREET = Invocations.of(Greeting.class, "greet", "ada");

    private final ExecutorService callers = Executors.newFixedThreadPool(4);
    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "a");

    @AfterEach
    void stopCallers() throws InterruptedException {
        callers.shutdownNow();
        assertThat(callers.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
    }

    private List<Future<Object>> call(int times) {
        List<Future<Object>> futures = new ArrayList<>();
        for (int i = 0; i < times; i++) {
            futures.add(callers.submit(() -> a.invoke(GREET).getValue()));
        }
        return futures;
    }

    @Test
    void heldCalls_stayInFlight_untilReleased() throws Exception {
        try (HeldCalls held = a.holdCalls()) {
            List<Future<Object>> futures = call(3);

            held.awaitHeld(3);

            assertThat(held.held()).isEqualTo(3);
            assertThat(a.inFlight()).isEqualTo(3);
            assertThat(a.calls()).isEqualTo(3);
            assertThat(futures).noneMatch(Future::isDone);

            held.releaseAll();
            for (Future<Object> future : futures) {
                assertThat(future.get(30, TimeUnit.SECONDS)).isEqualTo("a");
            }
            assertThat(a.inFlight()).isZero();
            assertThat(held.heldSoFar()).isEqualTo(3);
            assertThat(held.isReleased()).isTrue();
        }
    }

    @Test
    void release_letsExactlyThatManyCallsGo() throws Exception {
        try (HeldCalls held = a.holdCalls()) {
            List<Future<Object>> futures = call(3);
            held.awaitHeld(3);

            held.release(1);

            awaitDone(futures, 1);
            assertThat(held.held()).isEqualTo(2);
            assertThat(a.inFlight()).isEqualTo(2);
            assertThat(futures.stream().filter(Future::isDone).count()).isEqualTo(1);
        }
    }

    @Test
    void manyHeldCallers_areAllReleased_andNoneIsLost() throws Exception {
        int callers = 16;
        ExecutorService pool = Executors.newFixedThreadPool(callers);
        try (HeldCalls held = a.holdCalls()) {
            List<Future<Object>> futures = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                futures.add(pool.submit(() -> a.invoke(GREET).getValue()));
            }
            held.awaitHeld(callers);
            assertThat(a.inFlight()).isEqualTo(callers);

            for (int i = 0; i < callers; i++) {
                held.release(1);
            }

            for (Future<Object> future : futures) {
                assertThat(future.get(30, TimeUnit.SECONDS)).isEqualTo("a");
            }
            assertThat(held.held()).isZero();
            assertThat(held.heldSoFar()).isEqualTo(callers);
            assertThat(a.inFlight()).isZero();
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void permitsGivenEarly_letTheNextCallsPass() {
        HeldCalls held = a.holdCalls();
        held.release(2);

        assertThat(a.invoke(GREET).getValue()).isEqualTo("a");
        assertThat(a.invoke(GREET).getValue()).isEqualTo("a");
        assertThat(held.heldSoFar()).isEqualTo(2);
        held.close();
    }

    @Test
    void afterReleaseAll_newCallsAreNotHeld() {
        HeldCalls held = a.holdCalls();
        held.releaseAll();

        assertThat(a.invoke(GREET).getValue()).isEqualTo("a");
        assertThat(held.heldSoFar()).isZero();
    }

    @Test
    void aForgottenHold_failsTheCall_afterTheBound() {
        HeldCalls held = a.holdCalls(Duration.ofMillis(50));

        assertThatThrownBy(() -> a.invoke(GREET))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                .hasMessage("call of method greet held by fake provider a was never released within PT0.05S"
                        + " (expected: HeldCalls.release(n), releaseAll() or close())");
        assertThat(held.held()).isZero();
        assertThat(a.inFlight()).isZero();
    }

    @Test
    void awaitHeld_reportsWhatItSaw_whenTooFewArrive() throws Exception {
        try (HeldCalls held = a.holdCalls()) {
            call(1);
            held.awaitHeld(1);

            assertThat(held.awaitHeld(2, Duration.ofMillis(20))).isFalse();
            assertThatThrownBy(() -> held.awaitHeld(0)).hasMessage("count: 0 (expected: >= 1)");
        }
    }

    @Test
    void aNewHold_releasesThePreviousOne() throws Exception {
        HeldCalls first = a.holdCalls();
        List<Future<Object>> futures = call(1);
        first.awaitHeld(1);

        try (HeldCalls second = a.holdCalls()) {
            assertThat(futures.get(0).get(30, TimeUnit.SECONDS)).isEqualTo("a");
            assertThat(first.isReleased()).isTrue();
            List<Future<Object>> later = call(1);
            second.awaitHeld(1);
            assertThat(later.get(0).isDone()).isFalse();
        }
    }

    @Test
    void destroy_releasesHeldCalls() throws Exception {
        HeldCalls held = a.holdCalls();
        List<Future<Object>> futures = call(2);
        held.awaitHeld(2);

        a.destroy();

        for (Future<Object> future : futures) {
            assertThat(future.get(30, TimeUnit.SECONDS)).isEqualTo("a");
        }
        assertThatThrownBy(() -> a.invoke(GREET)).isInstanceOf(RpcException.class);
    }

    @Test
    void interruptedHeldCall_failsAsNetworkError_andKeepsTheFlag() throws Exception {
        try (HeldCalls held = a.holdCalls()) {
            CompletableFuture<String> outcome = new CompletableFuture<>();
            Thread caller = new Thread(() -> {
                try {
                    a.invoke(GREET);
                    outcome.complete("answered");
                } catch (RpcException e) {
                    outcome.complete("network=" + e.isNetwork() + ", interrupted=" + Thread.currentThread().isInterrupted()
                            + ", " + e.getMessage());
                }
            });
            caller.start();
            held.awaitHeld(1);

            caller.interrupt();

            assertThat(outcome.get(30, TimeUnit.SECONDS))
                    .isEqualTo("network=true, interrupted=true, call of method greet held by fake provider a was interrupted");
            caller.join(30_000);
            assertThat(held.held()).isZero();
        }
    }

    @Test
    void toString_showsCounts() throws Exception {
        HeldCalls held = a.holdCalls();
        call(1);
        held.awaitHeld(1);

        assertThat(held).hasToString("HeldCalls[a, held=1, heldSoFar=1, permits=0]");
        held.close();
        assertThat(held.toString()).contains("released");
    }

    private static void awaitDone(List<Future<Object>> futures, int count) throws InterruptedException, ExecutionException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (futures.stream().filter(Future::isDone).count() < count) {
            assertThat(System.nanoTime()).as("%s of %s calls done within 30 s", count, futures.size()).isLessThan(deadline);
            Thread.sleep(5);
        }
        for (Future<Object> future : futures) {
            if (future.isDone()) {
                assertThat(future.get()).isEqualTo("a");
            }
        }
    }
}
