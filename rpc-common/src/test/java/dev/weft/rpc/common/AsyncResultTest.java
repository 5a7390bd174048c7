package dev.weft.rpc.common;

import com.google.common.base.Ticker;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class AsyncResultTest {

    @Test
    void whenComplete_onAPendingResult_runsOnceAtTheEnd_andTheReturnedResultEndsAfterTheAction() {
        AsyncResult pending = AsyncResult.pending();
        List<String> events = new ArrayList<>();
        Result observed = pending.whenComplete((result, failure) -> events.add("action " + result.getValue() + " " + failure));
        assertThat(events).isEmpty();
        assertThat(observed.isDone()).isFalse();

        pending.complete(RpcResult.of("v"));
        pending.complete(RpcResult.of("again"));

        assertThat(events).containsExactly("action v null");
        assertThat(observed.isDone()).isTrue();
        assertThat(observed.getValue()).isEqualTo("v");
    }

    @Test
    void accessorsOfAPendingResult_throwInsteadOfWaiting() {
        AsyncResult pending = AsyncResult.pending();
        assertThatThrownBy(pending::getValue).isInstanceOf(IllegalStateException.class).hasMessageContaining("pending");
        assertThatThrownBy(pending::recreate).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aFailedResult_showsTheFailure_andItsCompletionFailsWithItUnwrapped() throws Throwable {
        RpcException failure = new RpcException(RpcException.NETWORK_EXCEPTION, "down");
        AsyncResult failed = AsyncResult.failed(failure);

        assertThat(failed.isDone()).isTrue();
        assertThat(failed.getException()).isSameAs(failure);
        assertThat(Results.failureOf(failed)).isSameAs(failure);
        assertThatThrownBy(failed::recreate).isSameAs(failure);
        AtomicReference<Throwable> seen = new AtomicReference<>();
        failed.whenComplete((result, cause) -> seen.set(cause));
        assertThat(seen.get()).isSameAs(failure);
        assertThatThrownBy(() -> Results.throwIfFailed(failed)).isSameAs(failure);
    }

    @Test
    void serviceExceptionInAFinishedResult_isAnAnswer_notAFailure() {
        IllegalArgumentException fromService = new IllegalArgumentException("bad");
        AsyncResult answered = AsyncResult.pending();
        answered.complete(RpcResult.ofException(fromService));
        assertThat(Results.failureOf(answered)).isNull();
        assertThat(answered.getException()).isSameAs(fromService);
        assertThat(answered.completion().toCompletableFuture().join().getException()).isSameAs(fromService);
    }

    @Test
    void then_onADoneResult_runsAtOnce_andOnAPendingOne_whenItEnds_withTheFailureUnwrapped() {
        Result direct = Results.then(RpcResult.of(1), (result, failure) -> RpcResult.of((Integer) result.getValue() + 1));
        assertThat(direct.getValue()).isEqualTo(2);

        AsyncResult pending = AsyncResult.pending();
        Result retried = Results.then(pending, (result, failure) -> failure instanceof RpcException e && e.isNetwork()
                ? RpcResult.of("retried") : AsyncResult.failed(failure));
        assertThat(retried.isDone()).isFalse();
        pending.fail(new RpcException(RpcException.NETWORK_EXCEPTION, "lost"));
        assertThat(retried.getValue()).isEqualTo("retried");

        Result thrown = Results.then(RpcResult.of(1), (result, failure) -> {
            throw new IllegalStateException("continuation broke");
        });
        assertThat(Results.failureOf(thrown)).hasMessage("continuation broke");
    }

    @Test
    void ofAnswer_endsWithTheImplementationsFuture_itsExceptionBeingTheServicesOwn() {
        CompletableFuture<String> implementation = new CompletableFuture<>();
        AsyncResult result = AsyncResult.ofAnswer(implementation);
        implementation.completeExceptionally(new IllegalStateException("out of stock"));
        assertThat(Results.failureOf(result)).isNull();
        assertThat(result.getException()).hasMessage("out of stock");
    }

    @Test
    void mockedResults_areMarked_throughAPendingResultToo() {
        AsyncResult pending = AsyncResult.pending();
        pending.complete(RpcResult.mocked("fallback"));
        assertThat(pending.isMocked()).isTrue();
        assertThat(RpcResult.of("real").isMocked()).isFalse();
        assertThat(RpcResult.mockedException(new IllegalStateException()).isMocked()).isTrue();
    }

    @Test
    void threadlessExecutor_runsTheCallsTasksOnTheWaitingThread_andLateOnesOnTheFallback() throws Exception {
        List<Runnable> fallback = new ArrayList<>();
        ThreadlessExecutor executor = new ThreadlessExecutor(fallback::add);
        AsyncResult result = AsyncResult.pending();
        AtomicReference<Thread> ranOn = new AtomicReference<>();
        Thread network = new Thread(() -> executor.execute(() -> {
            ranOn.set(Thread.currentThread());
            result.complete(RpcResult.of("answer"));
        }), "network");
        network.start();

        executor.await(result, Cancellation.NONE);

        assertThat(result.getValue()).isEqualTo("answer");
        assertThat(ranOn.get()).isSameAs(Thread.currentThread());
        executor.execute(() -> { });
        assertThat(fallback).hasSize(1);
        network.join();
    }

    @Test
    void anInterruptWhileWaiting_cancelsTheCall_andIsRestored() {
        ThreadlessExecutor executor = new ThreadlessExecutor(Runnable::run);
        AsyncResult result = AsyncResult.pending();
        Cancellation cancellation = Cancellation.create();
        cancellation.onCancel(() -> result.fail(new RpcException(RpcException.CANCELLED, "cancelled")));
        Thread.currentThread().interrupt();

        executor.await(result, cancellation);

        assertThat(Thread.interrupted()).as("interrupt restored").isTrue();
        assertThat(cancellation.isCancelled()).isTrue();
        assertThat(((RpcException) Results.failureOf(result)).isCancelled()).isTrue();
    }

    @Test
    void cancellation_runsEachListenerOnce_removedOnesNever_andLateOnesAtOnce() {
        Cancellation cancellation = Cancellation.create();
        AtomicInteger runs = new AtomicInteger();
        cancellation.onCancel(runs::incrementAndGet);
        cancellation.onCancel(runs::incrementAndGet).remove();
        assertThat(cancellation.cancel()).isTrue();
        assertThat(cancellation.cancel()).isFalse();
        assertThat(runs).hasValue(1);
        cancellation.onCancel(runs::incrementAndGet);
        assertThat(runs).hasValue(2);
        assertThat(Cancellation.NONE.cancel()).isFalse();
    }

    @Test
    void deadline_isAbsolute_onItsTicker_andTheMinimumIsTheEarlier() {
        AtomicLong now = new AtomicLong(1_000);
        Ticker ticker = new Ticker() {
            @Override
            public long read() {
                return now.get();
            }
        };
        Deadline budget = Deadline.after(500, TimeUnit.MILLISECONDS, ticker);
        Deadline attempt = Deadline.after(300, TimeUnit.MILLISECONDS, ticker);
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(250));

        assertThat(budget.timeRemaining(TimeUnit.MILLISECONDS)).isEqualTo(250);
        assertThat(budget.minimum(attempt)).isSameAs(attempt);
        assertThat(attempt.minimum(null)).isSameAs(attempt);
        assertThat(attempt.isExpired()).isFalse();
        now.addAndGet(TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(attempt.isExpired()).isTrue();
        CallOptions options = CallOptions.DEFAULT.withDeadline(budget).withEarlierDeadline(attempt).withAttempt(2);
        assertThat(options.deadline()).isSameAs(attempt);
        assertThat(options.attempt()).isEqualTo(2);
    }
}
