package dev.weft.rpc.benchmarks;

import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.InvokerStats;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Weft only, no Dubbo counterpart: the parts of one failover cluster invoke, so the cluster
 * figures can be attributed — listing the directory, and the per-call statistics bookkeeping
 * around each provider call ({@code InvokerStats.of(invoker)}, {@code begin()}, two clock reads,
 * {@code end(...)}), which the cluster invoker does for the stats-driven balancers.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WeftBreakdownBenchmark {
    @Param({"10", "100"})
    public int invokers;

    private Directory<Greeter> directory;
    private List<Invoker<Greeter>> providers;
    private Invocation[] invocations;
    private int next;

    @Setup
    public void setUp() {
        providers = WeftFixtures.constantInvokers(invokers, "equal");
        directory = new StaticDirectory<>(URL.valueOf(Workload.consumerUrl("cluster=failover&loadbalance=random")),
                providers);
        invocations = WeftFixtures.invocations();
    }

    @Benchmark
    public Object directoryList() {
        return directory.list(invocations[next++ & (Workload.ARGUMENT_COUNT - 1)]);
    }

    @Benchmark
    public Object statsAroundOneCall() {
        Invoker<Greeter> invoker = providers.get(next++ % invokers);
        InvokerStats stats = InvokerStats.of(invoker);
        stats.begin();
        long start = System.nanoTime();
        stats.end(System.nanoTime() - start, true);
        return stats;
    }
}
