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
 * figures can be attributed: listing the directory, and the per-call statistics bookkeeping that
 * {@code AbstractClusterInvoker.invokeProvider} does around each provider call
 * ({@code InvokerStats.startCall()}/{@code endCall(...)}), untimed (what {@code random},
 * {@code roundrobin}, {@code leastactive}, {@code consistenthash} need) and timed (once
 * {@code shortestresponse} or {@code p2c} turned latency tracking on).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WeftBreakdownBenchmark {
    @Param({"10", "100"})
    public int invokers;

    private Directory<Greeter> directory;
    private InvokerStats[] untimed;
    private InvokerStats[] timed;
    private Invocation[] invocations;
    private int next;

    @Setup
    public void setUp() {
        List<Invoker<Greeter>> providers = WeftFixtures.constantInvokers(invokers, "equal");
        directory = new StaticDirectory<>(URL.valueOf(Workload.consumerUrl("cluster=failover&loadbalance=random")),
                providers);
        invocations = WeftFixtures.invocations();
        untimed = new InvokerStats[invokers];
        for (int i = 0; i < invokers; i++) {
            untimed[i] = InvokerStats.of(providers.get(i));
        }
        timed = new InvokerStats[invokers];
        List<Invoker<Greeter>> tracked = WeftFixtures.constantInvokers(invokers, "equal");
        for (int i = 0; i < invokers; i++) {
            timed[i] = InvokerStats.of(tracked.get(i));
            timed[i].trackLatency();
        }
    }

    @Benchmark
    public Object directoryList() {
        return directory.list(invocations[next++ & (Workload.ARGUMENT_COUNT - 1)]);
    }

    @Benchmark
    public Object statsUntimed() {
        InvokerStats stats = untimed[next++ % invokers];
        stats.endCall(stats.startCall(), true);
        return stats;
    }

    @Benchmark
    public Object statsTimed() {
        InvokerStats stats = timed[next++ % invokers];
        stats.endCall(stats.startCall(), true);
        return stats;
    }
}
