package dev.weft.rpc.cluster;

import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import dev.weft.rpc.common.URL;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FailbackClusterInvokerTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
    private final ManualRetryScheduler scheduler = new ManualRetryScheduler();
    private final FailbackCluster cluster = first(new FailbackCluster(scheduler));

    private FailbackClusterInvoker<Greeting> join(DynamicDirectory<Greeting> directory) {
        return (FailbackClusterInvoker<Greeting>) cluster.join(directory);
    }

    @Test
    void failback_returnsEmptyResultAtOnce_andRetriesAfterThePeriod_untilSuccessRemovesTheTask() {
        a.then(Reply.networkError(), Reply.networkError());
        FailbackClusterInvoker<Greeting> invoker = join(directory("failback.period=250", a));

        Result result = invoker.invoke(hello());

        assertThat(result.getValue()).isNull();
        assertThat(result.hasException()).isFalse();
        assertThat(invoker.pendingRetries()).isEqualTo(1);
        assertThat(scheduler.delays()).containsExactly(250L);

        assertThat(scheduler.runDue()).isEqualTo(1);
        assertThat(a.calls()).isEqualTo(2);
        assertThat(invoker.pendingRetries()).as("second failure: still queued").isEqualTo(1);

        assertThat(scheduler.runDue()).isEqualTo(1);
        assertThat(a.calls()).isEqualTo(3);
        assertThat(invoker.pendingRetries()).as("success removes the task").isZero();
        assertThat(scheduler.scheduled()).isZero();
    }

    @Test
    void failback_givesUpAfterRetries_methodLevel() {
        a.answering(Reply.networkError());
        FailbackClusterInvoker<Greeting> invoker = join(directory("hello.retries=2", a));

        invoker.invoke(hello());
        while (scheduler.runDue() > 0) {
            // drain
        }

        assertThat(a.calls()).as("1 call + 2 retries").isEqualTo(3);
        assertThat(invoker.pendingRetries()).isZero();
        assertThat(invoker.droppedRetries()).isZero();
    }

    @Test
    void failback_defaultsToThreeRetriesEveryFiveSeconds() {
        a.answering(Reply.networkError());
        FailbackClusterInvoker<Greeting> invoker = join(directory("", a));

        invoker.invoke(hello());
        while (scheduler.runDue() > 0) {
            // drain
        }

        assertThat(a.calls()).isEqualTo(4);
        assertThat(scheduler.delays()).containsExactly(5000L, 5000L, 5000L);
    }

    @Test
    void failback_retryReselectsFromTheCurrentDirectory_avoidingTheProviderThatFailed() {
        a.answering(Reply.networkError());
        DynamicDirectory<Greeting> directory = directory("", a);
        FailbackClusterInvoker<Greeting> invoker = join(directory);
        invoker.invoke(hello());

        directory.setInvokers(List.of(a, b));
        scheduler.runDue();

        assertThat(a.calls()).isEqualTo(1);
        assertThat(b.calls()).isEqualTo(1);
        assertThat(invoker.pendingRetries()).isZero();
    }

    @Test
    void failback_treatsAnEmptyDirectoryAsAFailure_retryingLater() {
        DynamicDirectory<Greeting> directory = directory("");
        FailbackClusterInvoker<Greeting> invoker = join(directory);

        assertThat(invoker.invoke(hello()).getValue()).isNull();
        assertThat(invoker.pendingRetries()).isEqualTo(1);

        directory.setInvokers(List.of(a));
        scheduler.runDue();

        assertThat(a.calls()).isEqualTo(1);
        assertThat(invoker.pendingRetries()).isZero();
    }

    @Test
    void failback_queueIsBounded_andDropsAreCounted() {
        a.answering(Reply.networkError());
        FailbackClusterInvoker<Greeting> invoker = join(directory("failbacktasks=2", a));

        for (int i = 0; i < 5; i++) {
            assertThat(invoker.invoke(hello()).getValue()).isNull();
        }

        assertThat(invoker.pendingRetries()).isEqualTo(2);
        assertThat(invoker.droppedRetries()).isEqualTo(3);
    }

    @Test
    void failback_neverRetriesBusinessExceptions() {
        a.then(Reply.rpcFailure(RpcException.BIZ_EXCEPTION));
        FailbackClusterInvoker<Greeting> invoker = join(directory("", a));

        assertThatThrownBy(() -> invoker.invoke(hello())).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue());
        IllegalArgumentException fromService = new IllegalArgumentException("bad name");
        a.then(Reply.serviceException(fromService));
        assertThat(invoker.invoke(hello()).getException()).isSameAs(fromService);
        assertThat(invoker.pendingRetries()).isZero();
    }

    @Test
    void failback_zeroRetries_logsAndDoesNotQueue() {
        a.answering(Reply.networkError());
        FailbackClusterInvoker<Greeting> invoker = join(directory("retries=0", a));

        assertThat(invoker.invoke(hello()).getValue()).isNull();
        assertThat(invoker.pendingRetries()).isZero();
        assertThat(scheduler.scheduled()).isZero();
    }

    @Test
    void failback_retryPrefersAnotherProvider_evenWhenTheFailedOneIsShownThroughANewViewByThen() {
        a.answering(Reply.networkError());
        DynamicDirectory<Greeting> directory = directory("", new ProviderView<>(a, "timeout=100"), new ProviderView<>(b, "timeout=100"));
        FailbackClusterInvoker<Greeting> invoker = join(directory);
        invoker.invoke(hello());

        directory.setInvokers(List.of(new ProviderView<>(a, "timeout=300"), new ProviderView<>(b, "timeout=300")));
        assertThat(scheduler.runDue()).isEqualTo(1);

        assertThat(a.calls()).as("the first attempt only").isEqualTo(1);
        assertThat(b.calls()).as("the retry").isEqualTo(1);
        assertThat(invoker.pendingRetries()).isZero();
    }

    @Test
    void destroy_cancelsQueuedRetries() {
        a.answering(Reply.networkError());
        FailbackClusterInvoker<Greeting> invoker = join(directory("", a));
        invoker.invoke(hello());
        invoker.invoke(hello());

        invoker.destroy();

        assertThat(invoker.pendingRetries()).isZero();
        assertThat(scheduler.runDue()).isZero();
        assertThat(a.calls()).isEqualTo(2);
    }

    @Test
    void aCallFailingAfterDestroy_isNotRetried_norCountedAsDroppedForAFullQueue() {
        AtomicReference<FailbackClusterInvoker<Greeting>> joined = new AtomicReference<>();
        a.answering((invocation, self) -> {
            joined.get().destroy(); // the consumer shuts down while this call is in flight
            return Reply.networkError().reply(invocation, self);
        });
        joined.set(join(directory("", a)));

        assertThat(joined.get().invoke(hello()).getValue()).isNull();

        assertThat(joined.get().pendingRetries()).isZero();
        assertThat(joined.get().droppedRetries()).as("cancelled by destroy, like the retries queued before it").isZero();
        assertThat(scheduler.scheduled()).isZero();
    }

    @Test
    void afterClusterClose_failuresAreDroppedAndCounted() {
        a.answering(Reply.networkError());
        FailbackClusterInvoker<Greeting> invoker = join(directory("", a));
        invoker.invoke(hello());

        cluster.close();
        assertThat(invoker.pendingRetries()).as("queued retries will never run").isZero();
        assertThat(invoker.droppedRetries()).isEqualTo(1);
        invoker.invoke(hello());

        assertThat(invoker.pendingRetries()).isZero();
        assertThat(invoker.droppedRetries()).as("the stale queued one and the new one").isEqualTo(2);
    }

    @Test
    void badFailbackKeys_areRejectedWithTheKey() {
        assertThatThrownBy(() -> join(directory("failbacktasks=0", a)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("failbacktasks: 0 (expected: an integer >= 1) in consumer URL consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting?failbacktasks=0");
        assertThatThrownBy(() -> join(directory("failback.period=-1", a)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("failback.period: -1 (expected: an integer >= 1) in consumer URL");
        assertThat(a.calls()).isZero();
    }

    @Test
    void realTimer_retriesInTheBackground_andCloseStopsItsThreads() throws InterruptedException {
        long before = ThreadCounts.alive("weft-failback-");
        FailbackCluster real = first(new FailbackCluster());
        CountDownLatch retried = new CountDownLatch(1);
        a.then(Reply.networkError()).answering((invocation, self) -> {
            retried.countDown();
            assertThat(Thread.currentThread().getName()).startsWith("weft-failback-worker-");
            return Reply.providerName().reply(invocation, self);
        });
        @SuppressWarnings("unchecked")
        FailbackClusterInvoker<Greeting> invoker = (FailbackClusterInvoker<Greeting>) (Invoker<?>) real.join(
                directory("failback.period=20", a));

        invoker.invoke(hello());

        assertThat(retried.await(5, TimeUnit.SECONDS)).isTrue();
        assertThat(ThreadCounts.alive("weft-failback-timer-")).isEqualTo(1);
        real.close();
        assertThat(ThreadCounts.awaitAlive("weft-failback-", before)).isEqualTo(before);
    }

    @Test
    void failback_aRetryThrowingAnError_freesItsQueueSlot_soLaterFailuresAreStillQueued() {
        a.then(Reply.networkError(), (invocation, self) -> {
            throw new OutOfMemoryError("simulated at " + self.name());
        });
        a.answering(Reply.networkError());
        FailbackClusterInvoker<Greeting> invoker = join(directory("failbacktasks=1", a));

        invoker.invoke(hello());
        assertThat(invoker.pendingRetries()).isEqualTo(1);
        assertThat(scheduler.runDue()).isEqualTo(1);
        assertThat(invoker.pendingRetries()).as("the Error ended the task and freed its slot").isZero();

        invoker.invoke(hello());
        assertThat(invoker.pendingRetries()).isEqualTo(1);
        assertThat(invoker.droppedRetries()).isZero();
    }
}
