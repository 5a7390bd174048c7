package dev.weft.rpc.cluster;

import dev.weft.rpc.testing.Calls;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;
import dev.weft.rpc.common.URL;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ForkingClusterInvokerTest {

    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
    private final FakeProvider<Greeting> c = FakeProvider.of(Greeting.class, "10.0.0.3");
    private final FakeProvider<Greeting> d = FakeProvider.of(Greeting.class, "10.0.0.4");
    private final CountDownLatch release = new CountDownLatch(1);
    private final ForkingCluster cluster = first(new ForkingCluster(4));

    /** Per provider name: the pending answer of its last call, and that call's cancellation. */
    private final Map<String, AsyncResult> heldAnswers = new ConcurrentHashMap<>();
    private final Map<String, Cancellation> heldCancellations = new ConcurrentHashMap<>();

    /** Answers later: a pending result the test completes, failed with CANCELLED when its fork is cancelled (as a protocol does). */
    private Reply later() {
        return (invocation, provider) -> {
            AsyncResult answer = AsyncResult.pending();
            Cancellation cancellation = invocation.getCallOptions().cancellation();
            cancellation.onCancel(() -> answer.fail(new RpcException(RpcException.CANCELLED, "cancelled at " + provider.name())));
            heldCancellations.put(provider.name(), cancellation);
            heldAnswers.put(provider.name(), answer);
            return answer;
        };
    }

    private void awaitHeld(int forks) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (heldAnswers.size() < forks && System.nanoTime() < deadline) {
            Thread.sleep(2);
        }
        assertThat(heldAnswers).as("forks running").hasSize(forks);
    }

    @AfterEach
    void tearDown() {
        release.countDown();
        cluster.close();
    }

    @Test
    void forking_returnsTheFirstSuccess_withoutWaitingForSlowerForks() throws Throwable {
        CountDownLatch aEntered = new CountDownLatch(1);
        a.answering(TestClusters.blockUntil(aEntered, release));

        Result result = Calls.invoke(cluster.join(directory("timeout=5000", a, b)), hello());

        assertThat(result.recreate()).isEqualTo("10.0.0.2");
        assertThat(release.getCount()).as("a is still blocked: nobody waited for it").isEqualTo(1);
    }

    @Test
    void forking_eachForkHasItsOwnInvocation_soAnAttachmentOneForkWritesNeverReachesAnother() throws Throwable {
        CountDownLatch allWrote = new CountDownLatch(3);
        Map<String, String> seen = new ConcurrentHashMap<>();
        for (FakeProvider<Greeting> provider : List.of(a, b, c)) {
            provider.answering((invocation, self) -> {
                // what a per-call filter does below the cluster (a tracing span id): write an attachment in place
                ((RpcInvocation) invocation).setAttachment("span", self.name());
                CountDownLatch wrote = allWrote;
                wrote.countDown();
                try {
                    assertThat(wrote.await(10, TimeUnit.SECONDS)).as("every fork wrote its span").isTrue();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RpcException(RpcException.NETWORK_EXCEPTION, "interrupted", e);
                }
                seen.put(self.name(), invocation.getAttachment("span"));
                return Reply.providerName().reply(invocation, self);
            });
        }
        RpcInvocation call = hello();

        Calls.invoke(cluster.join(directory("forks=3&timeout=10000", a, b, c)), call);

        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (seen.size() < 3 && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(seen).containsOnly(Map.entry(a.name(), a.name()), Map.entry(b.name(), b.name()), Map.entry(c.name(), c.name()));
        assertThat(call.getAttachments()).as("the caller's invocation").doesNotContainKey("span");
    }

    @Test
    void forking_theFirstAnswerWins_andTheForksStillRunningAreCancelled_theWinnerIsNot() throws Exception {
        for (FakeProvider<Greeting> provider : List.of(a, b, c)) {
            provider.answering(later());
        }
        Result result = cluster.join(directory("forks=3&timeout=10000", a, b, c)).invoke(hello());
        awaitHeld(3);
        assertThat(heldCancellations.values()).noneMatch(Cancellation::isCancelled);

        heldAnswers.get(b.name()).complete(RpcResult.of("from b"));

        assertThat(Calls.await(result).getValue()).isEqualTo("from b");
        assertThat(heldCancellations.get(a.name()).isCancelled()).as("losing fork at a").isTrue();
        assertThat(heldCancellations.get(c.name()).isCancelled()).as("losing fork at c").isTrue();
        assertThat(heldCancellations.get(b.name()).isCancelled()).as("the winner").isFalse();
        assertThat(heldAnswers.get(a.name()).isDone()).as("a's attempt ended by its cancel").isTrue();
    }

    @Test
    void forking_forksDoNotShareTheCallersCancellation_eachHasItsOwn() throws Exception {
        a.answering(later());
        b.answering(later());
        RpcInvocation call = hello();
        Cancellation callers = Cancellation.create();
        call.setCallOptions(call.getCallOptions().withCancellation(callers));

        Result result = cluster.join(directory("forks=2&timeout=10000", a, b)).invoke(call);
        awaitHeld(2);

        assertThat(heldCancellations.values()).doesNotContain(callers).doesNotHaveDuplicates();
        callers.cancel();
        assertThatThrownBy(() -> Calls.await(result))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isCancelled()).isTrue());
        assertThat(heldCancellations.values()).as("the caller's cancel reaches every fork").allMatch(Cancellation::isCancelled);
    }

    @Test
    void forking_timeout_cancelsTheForksStillRunning() throws Exception {
        a.answering(later());
        b.answering(later());

        Result result = cluster.join(directory("forks=2&timeout=100", a, b)).invoke(hello());

        assertThatThrownBy(() -> Calls.await(result)).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue());
        awaitHeld(2);
        assertThat(heldCancellations.values()).hasSize(2).allMatch(Cancellation::isCancelled);
    }

    @Test
    void forking_aForkQueuedWhenTheCallEnds_neverReachesItsProvider() throws Exception {
        ForkingCluster oneThread = first(new ForkingCluster(1));
        try {
            CountDownLatch entered = new CountDownLatch(1);
            a.answering(TestClusters.blockUntil(entered, release));
            b.answering(Reply.providerName());
            // the one fork thread is held by a; b's fork waits in the queue until the caller cancels
            RpcInvocation call = hello();
            Cancellation callers = Cancellation.create();
            call.setCallOptions(call.getCallOptions().withCancellation(callers));
            Result result = oneThread.join(directory("forks=2&timeout=10000", a, b)).invoke(call);
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();

            callers.cancel();
            release.countDown();

            assertThatThrownBy(() -> Calls.await(result)).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isCancelled()).isTrue());
            oneThread.executor().submit(() -> { }).get(10, TimeUnit.SECONDS); // the fork thread is free again
            assertThat(b.calls()).as("calls at the queued fork's provider").isZero();
        } finally {
            oneThread.close();
        }
    }

    @Test
    void forking_callsForksDistinctInvokers() {
        CountDownLatch bothEntered = new CountDownLatch(2);
        for (FakeProvider<Greeting> invoker : List.of(a, b, c, d)) {
            invoker.answering(TestClusters.blockUntil(bothEntered, bothEntered));
        }

        Calls.invoke(cluster.join(directory("forks=2", a, b, c, d)), hello());

        assertThat(new int[] {a.calls(), b.calls(), c.calls(), d.calls()}).containsExactly(1, 1, 0, 0);
    }

    @Test
    void forking_nonPositiveOrLargeForks_callsAll() throws Exception {
        a.answering(Reply.networkError());
        b.answering(Reply.networkError());
        c.answering(Reply.networkError());
        d.answering(Reply.networkError());
        assertThatThrownBy(() -> Calls.invoke(cluster.join(directory("forks=0", a, b, c, d)), hello())).isInstanceOf(RpcException.class);
        assertThatThrownBy(() -> Calls.invoke(cluster.join(directory("forks=9", a, b, c, d)), hello())).isInstanceOf(RpcException.class);

        assertThat(new int[] {a.calls(), b.calls(), c.calls(), d.calls()}).containsExactly(2, 2, 2, 2);
    }

    @Test
    void forking_failsOnlyWhenAllFail_withTheLastCausesCode() {
        a.answering(Reply.networkError());
        b.then(Reply.throwing(new IllegalStateException("codec bug"))).answering(Reply.timeout());
        Invoker<Greeting> invoker = cluster.join(directory("", a, b));

        CountDownLatch entered = new CountDownLatch(1);
        a.then(TestClusters.blockUntil(entered, release));
        // b's unexpected failure alone does not fail the call: a answers once released
        new Thread(() -> {
            try {
                entered.await(5, TimeUnit.SECONDS);
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            release.countDown();
        }).start();
        assertThat(Calls.invoke(invoker, hello()).getValue()).isEqualTo("10.0.0.1");

        assertThatThrownBy(() -> Calls.invoke(invoker, hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.getCode()).isIn(RpcException.NETWORK_EXCEPTION,
                        RpcException.TIMEOUT_EXCEPTION))
                .hasMessageStartingWith("Forking invoke of method hello of service dev.weft.rpc.cluster.Greeting failed on all 2"
                        + " providers [10.0.0.1:20880, 10.0.0.2:20880] (consumer: consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting);"
                        + " last cause: RpcException: ");
    }

    @Test
    void forking_timesOut_withATimeoutError_neverNull() {
        CountDownLatch entered = new CountDownLatch(2);
        a.answering(TestClusters.blockUntil(entered, release));
        b.answering(TestClusters.blockUntil(entered, release));

        long start = System.nanoTime();
        assertThatThrownBy(() -> Calls.invoke(cluster.join(directory("hello.timeout=100", a, b)), hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                .hasMessage("Forking invoke of method hello of service dev.weft.rpc.cluster.Greeting timed out after 100 ms waiting"
                        + " for 2 providers [10.0.0.1:20880, 10.0.0.2:20880] (0 failed; consumer:"
                        + " consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting?hello.timeout=100)");
        assertThat(TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start)).isBetween(90L, 4000L);
    }

    @Test
    void forking_businessExceptionIsAnAnswer_thrownUnchanged() {
        CountDownLatch entered = new CountDownLatch(1);
        a.answering(TestClusters.blockUntil(entered, release));
        b.answering(Reply.rpcFailure(RpcException.BIZ_EXCEPTION));

        assertThatThrownBy(() -> Calls.invoke(cluster.join(directory("timeout=5000", a, b)), hello()))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue())
                .hasMessage("scripted business failure at fake provider 10.0.0.2 (method hello)");
    }

    @Test
    void forking_rejectsANonPositiveTimeout() {
        assertThatThrownBy(() -> cluster.join(directory("timeout=0", a, b)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("timeout: 0 (expected: an integer >= 1) in consumer URL consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting?timeout=0");
    }

    @Test
    void close_stopsTheForkThreads_andLaterCallsFailClearly() throws InterruptedException {
        long before = ThreadCounts.alive("weft-forking-");
        Invoker<Greeting> invoker = cluster.join(directory("forks=0", a, b, c, d));
        Calls.invoke(invoker, hello());
        assertThat(ThreadCounts.alive("weft-forking-")).isGreaterThan(before);

        cluster.close();

        assertThat(ThreadCounts.awaitAlive("weft-forking-", before)).isEqualTo(before);
        assertThatThrownBy(() -> Calls.invoke(invoker, hello()))
                .isInstanceOf(RpcException.class)
                .hasMessage("Forking invoke of method hello of service dev.weft.rpc.cluster.Greeting refused: the forking cluster is"
                        + " closed (consumer: consumer://10.0.0.100/dev.weft.rpc.cluster.Greeting?forks=0)");
    }

    @Test
    void forking_forksCoverTheList_neverCallAProviderThatWentDown() {
        Invoker<Greeting> invoker = cluster.join(directory("forks=2&timeout=5000", a, b));
        a.available(false);
        for (int i = 0; i < 100; i++) {
            assertThat(Calls.invoke(invoker, hello()).getValue()).isEqualTo("10.0.0.2");
        }
        assertThat(a.calls()).isZero();
    }

    @Test
    void forking_aProvidersError_isRethrownAtOnce_notAfterTheTimeout() {
        a.answering((invocation, self) -> {
            throw new StackOverflowError("deep recursion at " + self.name());
        });
        b.answering(TestClusters.blockUntil(new CountDownLatch(1), release));
        Invoker<Greeting> invoker = cluster.join(directory("forks=2&timeout=60000", a, b));
        long started = System.nanoTime();
        assertThatThrownBy(() -> Calls.invoke(invoker, hello())).isInstanceOf(StackOverflowError.class).hasMessageContaining("10.0.0.1");
        assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).as("seconds waited").isLessThan(30);
    }

    @Test
    void close_failsForkingCallsInFlight_atOnce_insteadOfWaitingOutTheirTimeout() throws Exception {
        CountDownLatch entered = new CountDownLatch(2);
        a.answering(TestClusters.blockUntil(entered, release));
        b.answering(TestClusters.blockUntil(entered, release));
        Invoker<Greeting> invoker = cluster.join(directory("forks=2&timeout=60000", a, b));
        java.util.concurrent.ExecutorService caller = java.util.concurrent.Executors.newSingleThreadExecutor();
        try {
            java.util.concurrent.Future<Result> call = caller.submit(() -> Calls.invoke(invoker, hello()));
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            long started = System.nanoTime();
            cluster.close();
            assertThatThrownBy(() -> call.get(30, TimeUnit.SECONDS))
                    .hasCauseInstanceOf(RpcException.class)
                    .hasMessageContaining("refused: the forking cluster is closed");
            assertThat(TimeUnit.NANOSECONDS.toSeconds(System.nanoTime() - started)).as("seconds waited").isLessThan(30);
        } finally {
            caller.shutdownNow();
        }
    }

    @Test
    void close_thenCallWithNoProviders_saysTheClusterIsClosed_notThatProvidersAreMissing() {
        Invoker<Greeting> invoker = cluster.join(directory("forks=2"));
        cluster.close();
        assertThatThrownBy(() -> Calls.invoke(invoker, hello()))
                .isInstanceOf(RpcException.class)
                .hasMessageContaining("refused: the forking cluster is closed");
    }

    @Test
    void close_failsAWaitingCall_atOnce_evenWhileItsForksIgnoreInterruption() throws Exception {
        CountDownLatch entered = new CountDownLatch(2);
        Reply stuck = (invocation, provider) -> {
            entered.countDown();
            com.google.common.util.concurrent.Uninterruptibles.awaitUninterruptibly(release, 20, TimeUnit.SECONDS);
            return Reply.providerName().reply(invocation, provider);
        };
        a.answering(stuck);
        b.answering(stuck);
        Invoker<Greeting> invoker = cluster.join(directory("forks=2&timeout=60000", a, b));
        java.util.concurrent.ExecutorService threads = java.util.concurrent.Executors.newFixedThreadPool(2);
        try {
            java.util.concurrent.Future<Result> call = threads.submit(() -> Calls.invoke(invoker, hello()));
            assertThat(entered.await(10, TimeUnit.SECONDS)).isTrue();
            threads.submit(cluster::close);
            assertThatThrownBy(() -> call.get(4, TimeUnit.SECONDS))
                    .isInstanceOf(java.util.concurrent.ExecutionException.class)
                    .hasMessageContaining("refused: the forking cluster is closed");
        } finally {
            release.countDown();
            threads.shutdown();
            assertThat(threads.awaitTermination(30, TimeUnit.SECONDS)).isTrue();
        }
    }
}
