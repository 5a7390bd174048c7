package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
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
    void forking_interruptedWhileWaiting_failsAtOnce_keepsTheInterrupt_andCancelsTheQueuedForks() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        a.answering(TestClusters.blockUntil(entered, release));
        Invoker<Greeting> invoker = forking.join(directory("forks=2&timeout=60000", a, b));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        AtomicBoolean stillInterrupted = new AtomicBoolean();

        Future<?> call = caller.submit(() -> {
            try {
                invoker.invoke(hello());
            } catch (RpcException e) {
                failure.set(e);
                stillInterrupted.set(Thread.currentThread().isInterrupted());
            }
        });
        assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
        call.cancel(true);
        waitFor(failure);

        assertThat(failure.get()).hasMessage("Forking invoke of method hello of service dev.weft.rpc.cluster.Greeting"
                + " interrupted while waiting for 2 providers").hasCauseInstanceOf(InterruptedException.class);
        assertThat(stillInterrupted).as("the caller's interrupt flag is restored").isTrue();

        // the single fork thread runs in order: b's queued fork, unless cancelled, before c's
        release.countDown();
        assertThat(forking.join(directory("", c)).invoke(hello()).getValue()).isEqualTo("10.0.0.3");
        assertThat(b.calls()).as("b's fork was still queued when the call gave up").isZero();
    }

    @Test
    void forking_anAnswerOrTimeout_cancelsTheForksStillQueued() throws Exception {
        CountDownLatch entered = new CountDownLatch(1);
        a.answering(TestClusters.blockUntil(entered, release));
        Invoker<Greeting> single = forking.join(directory("timeout=60000", a));
        Future<?> blocked = caller.submit(() -> single.invoke(hello()));
        assertThat(entered.await(10, TimeUnit.SECONDS)).as("a holds the only fork thread").isTrue();

        // b's and c's forks queue behind a; the wait ends first and must cancel them
        Throwable timedOut = catchThrowable(() -> forking.join(directory("forks=2&timeout=50", b, c)).invoke(hello()));
        assertThat(timedOut).isInstanceOf(RpcException.class);
        assertThat(((RpcException) timedOut).isTimeout()).isTrue();

        release.countDown();
        blocked.get(10, TimeUnit.SECONDS);
        assertThat(forking.join(directory("forks=2&timeout=60000", b, c)).invoke(hello()).getValue()).isIn("10.0.0.2", "10.0.0.3");
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

        assertThat(invoker.invoke(hello()).getValue()).isNull();
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

        joined.get().invoke(hello());
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
