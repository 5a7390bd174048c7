package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.testing.Calls;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeProviders;
import dev.weft.rpc.testing.HeldCalls;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import static dev.weft.rpc.cluster.TestClusters.consumer;
import static dev.weft.rpc.cluster.TestClusters.directory;
import static dev.weft.rpc.cluster.TestClusters.first;
import static dev.weft.rpc.cluster.TestClusters.hello;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

/** Forking at its edges: a provider answering nothing, and a fork executor with no room left. */
class ForkingLimitsTest {

    private final ForkingCluster cluster = first(new ForkingCluster(1));
    private final ExecutorService caller = Executors.newSingleThreadExecutor();

    @AfterEach
    void tearDown() {
        caller.shutdownNow();
        cluster.close();
    }

    @Test
    void aProviderAnsweringNoResult_givesAnEmptyResult_neverNull() {
        FakeProvider<Greeting> silent = FakeProvider.of(Greeting.class, "10.0.0.1").answering((invocation, self) -> null);

        Result result = Calls.invoke(cluster.join(directory("timeout=60000", silent)), hello());

        assertThat(result).isNotNull();
        assertThat(result.getValue()).isNull();
        assertThat(result.hasException()).isFalse();
    }

    @Test
    void aSaturatedExecutor_refusesTheFork_andTheCallFailsAtOnce_namingTheProvider() throws Exception {
        List<FakeProvider<Greeting>> many = FakeProviders.of(Greeting.class, ForkingCluster.QUEUE_BOUND + 1);
        // Every provider holds its call: the one fork thread stays busy whichever fork it takes first,
        // so the other QUEUE_BOUND forks stay queued and the queue stays full.
        List<HeldCalls> held = many.stream().map(provider -> provider.holdCalls(Duration.ofSeconds(30))).toList();
        DynamicDirectory<Greeting> crowded = new DynamicDirectory<>(Greeting.class, consumer("forks=0&timeout=60000"));
        crowded.setInvokers(FakeProviders.invokers(many));
        Invoker<Greeting> filling = cluster.join(crowded);
        Future<Result> fills = caller.submit(() -> Calls.invoke(filling, hello()));
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        ThreadPoolExecutor executor = (ThreadPoolExecutor) cluster.executor();
        while ((held.stream().mapToInt(HeldCalls::heldSoFar).sum() < 1 || executor.getQueue().remainingCapacity() > 0)
                && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
        assertThat(held.stream().mapToInt(HeldCalls::heldSoFar).sum()).as("one fork runs, the others fill the queue").isEqualTo(1);
        assertThat(executor.getQueue().remainingCapacity()).as("the filling call has submitted all its forks").isZero();

        FakeProvider<Greeting> late = FakeProvider.of(Greeting.class, "10.0.0.200");
        RpcException e = catchThrowableOfType(RpcException.class,
                () -> Calls.invoke(cluster.join(directory("timeout=60000", late)), hello()));

        assertThat(e).isNotNull();
        assertThat(e).hasMessageStartingWith("Forking invoke of method hello of service dev.weft.rpc.cluster.Greeting failed on all 1"
                        + " providers [10.0.0.200:20880]")
                .hasMessageEndingWith("last cause: RpcException: fork on provider 10.0.0.200:20880 refused: the forking executor"
                        + " is saturated");
        assertThat(late.calls()).isZero();

        held.forEach(HeldCalls::releaseAll);
        assertThat(fills.get(30, TimeUnit.SECONDS).getValue()).isIn(many.stream().map(FakeProvider::name).toList().toArray());
    }
}
