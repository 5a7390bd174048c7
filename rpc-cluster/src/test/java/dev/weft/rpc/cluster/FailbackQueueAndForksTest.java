package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.testing.Calls;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeService;
import dev.weft.rpc.testing.HeldCalls;
import dev.weft.rpc.testing.Reply;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** failback's queue limits and retries, and forking's fork count and timeout, through the public API. */
class FailbackQueueAndForksTest extends FakeServiceClusterTest {


    private FailbackCluster failback() {
        return (FailbackCluster) director.getExtensionLoader(Cluster.class).getExtension("failback", false);
    }

    /** Waits (at most 10 s, busy machine) for {@code condition}. */
    private static boolean eventually(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() > deadline) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    // ------------------------------------------------------------------ failback

    @Test
    void failback_queueHoldsExactlyFailbacktasksCalls_theNextIsDroppedAndCounted() {
        FailbackCluster cluster = failback();
        DynamicDirectory<FakeService> directory = directory("failbacktasks=2&failback.period=600000",
                List.of(provider("a").failingWith(Reply.networkError())));
        FailbackClusterInvoker<FakeService> invoker = (FailbackClusterInvoker<FakeService>) cluster.join(directory);

        assertThat(Calls.invoke(invoker, call).getValue()).isNull();
        assertThat(Calls.invoke(invoker, call).getValue()).isNull();
        assertThat(invoker.pendingRetries()).isEqualTo(2);
        assertThat(invoker.droppedRetries()).isZero();
        assertThat(Calls.invoke(invoker, call).getValue()).isNull();
        assertThat(invoker.pendingRetries()).isEqualTo(2);
        assertThat(invoker.droppedRetries()).isEqualTo(1);
        assertThat(cluster.pendingRetries(directory)).isEqualTo(2);
        assertThat(cluster.droppedRetries(directory)).isEqualTo(1);

        invoker.destroy();
        assertThat(invoker.pendingRetries()).isZero();
        assertThat(invoker.droppedRetries()).isEqualTo(1);
    }

    @Test
    void failback_countsAreZeroForADirectoryItNeverJoined() {
        FailbackCluster cluster = failback();
        DynamicDirectory<FakeService> stranger = directory("", List.of(provider("a")));
        assertThat(cluster.pendingRetries(stranger)).isZero();
        assertThat(cluster.droppedRetries(stranger)).isZero();
    }

    @Test
    void failback_retriesZero_queuesNothing_andDropsNothing() {
        FailbackCluster cluster = failback();
        FailbackClusterInvoker<FakeService> invoker = (FailbackClusterInvoker<FakeService>) cluster.join(
                directory("retries=0&failback.period=600000", List.of(provider("a").failingWith(Reply.timeout()))));
        assertThat(Calls.invoke(invoker, call).getValue()).isNull();
        assertThat(invoker.pendingRetries()).isZero();
        assertThat(invoker.droppedRetries()).isZero();
    }

    @Test
    void failback_aBusinessFailureReachesTheCaller_andIsNotQueued() {
        FailbackCluster cluster = failback();
        FailbackClusterInvoker<FakeService> invoker = (FailbackClusterInvoker<FakeService>) cluster.join(
                directory("failback.period=600000", List.of(provider("a").failingWith(Reply.rpcFailure(RpcException.BIZ_EXCEPTION)))));
        assertThatThrownBy(() -> Calls.invoke(invoker, call)).isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isBiz()).isTrue());
        assertThat(invoker.pendingRetries()).isZero();
    }

    @Test
    void failback_retriesOnAnotherProvider_andAnAnswerEndsTheTask() throws InterruptedException {
        FailbackCluster cluster = failback();
        FakeProvider<FakeService> a = provider("a").failingWith(Reply.networkError());
        FakeProvider<FakeService> b = provider("b");
        FailbackClusterInvoker<FakeService> invoker = (FailbackClusterInvoker<FakeService>) cluster.join(
                directory("loadbalance=roundrobin&failback.period=20", List.of(a, b)));
        assertThat(Calls.invoke(invoker, call).getValue()).isNull();
        assertThat(eventually(() -> invoker.pendingRetries() == 0)).isTrue();
        assertThat(log.providers()).containsExactly("a", "b");
    }

    @Test
    void failback_givesUpAfterTheMethodsRetries() throws InterruptedException {
        FailbackCluster cluster = failback();
        FakeProvider<FakeService> a = provider("a").failingWith(Reply.networkError());
        FailbackClusterInvoker<FakeService> invoker = (FailbackClusterInvoker<FakeService>) cluster.join(
                directory("retries=5&call.retries=2&failback.period=20", List.of(a)));
        assertThat(Calls.invoke(invoker, call).getValue()).isNull();
        assertThat(eventually(() -> invoker.pendingRetries() == 0)).isTrue();
        assertThat(a.calls()).isEqualTo(3);
        assertThat(invoker.droppedRetries()).isZero();
    }

    // ------------------------------------------------------------------ forking

    @Test
    void forking_callsExactlyForksDistinctProviders_chosenByTheBalancer() {
        FakeProvider<FakeService> a = provider("a");
        FakeProvider<FakeService> b = provider("b");
        FakeProvider<FakeService> c = provider("c");
        Invoker<FakeService> invoker = director.getExtensionLoader(Cluster.class).getExtension("forking")
                .join(directory("loadbalance=roundrobin&forks=2&timeout=10000", List.of(a, b, c)));
        String first = (String) Calls.invoke(invoker, call).getValue();
        assertThat(first).isIn("a", "b");
        assertThat(c.calls()).isZero();
    }

    @Test
    void forking_timesOut_namingTheWaitTheProvidersAndTheFailures() throws InterruptedException {
        FakeProvider<FakeService> a = provider("a");
        FakeProvider<FakeService> b = provider("b");
        FakeProvider<FakeService> c = provider("c");
        String query = "loadbalance=roundrobin&forks=2&timeout=200";
        Invoker<FakeService> invoker = director.getExtensionLoader(Cluster.class).getExtension("forking")
                .join(directory(query, List.of(a, b, c)));
        try (HeldCalls heldA = a.holdCalls(Duration.ofSeconds(20)); HeldCalls heldB = b.holdCalls(Duration.ofSeconds(20))) {
            assertThatThrownBy(() -> Calls.invoke(invoker, call))
                    .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                    .hasMessage("Forking invoke of method call of service " + SERVICE + " timed out after 200 ms waiting for 2 providers"
                            + " [a:20880, b:20880] (0 failed; consumer: " + consumer(query) + ")");
            heldA.releaseAll();
            heldB.releaseAll();
        }
        assertThat(c.calls()).isZero();
    }

    @Test
    void forking_everyForkFailing_failsNamingAllOfThem_withTheLastCode() {
        FakeProvider<FakeService> a = provider("a").failingWith(Reply.timeout());
        FakeProvider<FakeService> b = provider("b").failingWith(Reply.timeout());
        String query = "forks=0&timeout=10000";
        Invoker<FakeService> invoker = director.getExtensionLoader(Cluster.class).getExtension("forking")
                .join(directory(query, List.of(a, b)));
        assertThatThrownBy(() -> Calls.invoke(invoker, call))
                .isInstanceOfSatisfying(RpcException.class, e -> assertThat(e.isTimeout()).isTrue())
                .hasMessageStartingWith("Forking invoke of method call of service " + SERVICE + " failed on all 2 providers"
                        + " [a:20880, b:20880] (consumer: " + consumer(query) + "); last cause: RpcException: scripted timeout at fake provider");
    }
}
