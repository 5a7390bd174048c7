package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.testing.Calls;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * What a caller sees when the work around its call stops: a forking call whose thread is
 * interrupted while it waits, and a failback retry that fails while its cluster closes.
 */
class CloseAndInterruptTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
    private final FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "10.0.0.3");
    private final CountDownLatch release = new CountDownLatch(1);
    private final ExecutorService caller = Executors.newSingleThreadExecutor();
    private final ForkingCluster forking = first(new ForkingCluster(1));

    @AfterEach
    void tearDown() {
        release.countDown();
        caller.shutdownNow();
        forking.close();
    }

    @Test
    void forking_cancelledByItsCaller_failsAtOnce_withoutRetry_andCancelsTheQueuedForks() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        a.answering(TestClusters.blockUntil(entered, release));
        Invoker<Greeting> invoker = forking.join(directory("forks=2&timeout=60000", a, b));
        Cancellation cancellation = Cancellation.create();
        RpcInvocation call = hello();
        call.setCallOptions(call.getCallOptions().withCancellation(cancellation));

        Result result = invoker.invoke(call);
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        assertThat(result.isDone()).as("no thread waits for the forks: the call is pending").isFalse();
        cancellation.cancel();

        assertThat(result.isDone()).as("cancelling ends the call at once").isTrue();
        assertThatThrownBy(() -> Calls.await(result)).isInstanceOfSatisfying(RpcException.class,
                e -> assertThat(e.isCancelled()).isTrue()).hasMessageContaining("cancelled by its caller");

        // the single fork thread runs in order: b's queued fork, unless cancelled, before c's
        release.countDown();
        assertThat(Calls.invoke(forking.join(directory("", c)), hello()).getValue()).isEqualTo("10.0.0.3");
        assertThat(b.calls()).as("b's fork was still queued when the call ended").isZero();
    }

    @Test
    void forking_anAnswerOrTimeout_cancelsTheForksStillQueued() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        a.answering(TestClusters.blockUntil(entered, release));
        Invoker<Greeting> single = forking.join(directory("timeout=60000", a));
        Future<?> blocked = caller.submit(() -> Calls.invoke(single, hello()));
        assertThat(entered.await(10, TimeUnit.SECONDS)).as("a holds the only fork thread").isTrue();

        // b's and c's forks queue behind a; the wait ends first and must cancel them
        Throwable timedOut = catchThrowable(() -> Calls.invoke(forking.join(directory("forks=2&timeout=50", b, c)), hello()));
        assertThat(timedOut).isInstanceOf(RpcException.class);
        assertThat(((RpcException) timedOut).isTimeout()).isTrue();

        release.countDown();
        blocked.get(10, TimeUnit.SECONDS);
        assertThat(Calls.invoke(forking.join(directory("forks=2&timeout=60000", b, c)), hello()).getValue()).isIn("10.0.0.2", "10.0.0.3");
        assertThat(b.calls() + c.calls()).as("only the second call's forks ran").isBetween(1, 2);
    }

    @Test
    void failback_aRetryFailingAsTheClusterCloses_isDroppedAndCounted_notLeftPending() {
        ManualRetryScheduler scheduler = new ManualRetryScheduler();
        FailbackCluster failback = first(new FailbackCluster(scheduler));
        a.then(Reply.networkError(), (invocation, self) -> {
            failback.close();
            return Reply.networkError().reply(invocation, self);
        });
        DynamicDirectory<Greeting> directory = directory("retries=3", a);
        Invoker<Greeting> invoker = failback.join(directory);

        assertThat(Calls.invoke(invoker, hello()).getValue()).isNull();
        assertThat(failback.pendingRetries(directory)).isEqualTo(1);
        assertThat(scheduler.runDue()).isEqualTo(1);

        assertThat(a.calls()).isEqualTo(2);
        assertThat(failback.pendingRetries(directory)).isZero();
        assertThat(failback.droppedRetries(directory)).isEqualTo(1);
    }

    @Test
    void failback_aRetryFailingAfterDestroy_givesUp_withoutRescheduling() {
        ManualRetryScheduler scheduler = new ManualRetryScheduler();
        FailbackCluster failback = first(new FailbackCluster(scheduler));
        AtomicReference<Invoker<Greeting>> joined = new AtomicReference<>();
        a.then(Reply.networkError(), (invocation, self) -> {
            joined.get().destroy();
            return Reply.networkError().reply(invocation, self);
        });
        DynamicDirectory<Greeting> directory = directory("retries=3", a);
        joined.set(failback.join(directory));

        Calls.invoke(joined.get(), hello());
        assertThat(scheduler.runDue()).isEqualTo(1);

        assertThat(scheduler.scheduled()).as("destroyed during the retry: no further retry").isZero();
        assertThat(failback.pendingRetries(directory)).isZero();
        assertThat(a.calls()).isEqualTo(2);
        failback.close();
    }

    private static void waitFor(AtomicReference<Throwable> failure) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (failure.get() == null && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }
}
