package dev.weft.rpc.benchmarks;

import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.CallStats;
import dev.weft.rpc.loadbalance.InvokerStats;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.spi.ExtensionLoader;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
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
 * figures can be attributed: listing the directory (exact {@code list}; the select-based strategies
 * read the candidates of the directory's state instead), and the per-call statistics bookkeeping that
 * {@code AbstractClusterInvoker.invokeProvider} does around each provider call
 * ({@code InvokerStats.startCall()}/{@code endCall(...)}): counted (calls in flight, always recorded)
 * and timed (latency too, once {@code shortestresponse} or {@code p2c} asked for it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class WeftBreakdownBenchmark {
    @Param({"10", "100"})
    public int invokers;

    private Directory<Greeter> directory;
    private List<Invoker<Greeter>> providers;
    private LoadBalance random;
    private URL consumerUrl;
    private String[] arguments;
    private InvokerStats[] counted;
    private InvokerStats[] timed;
    private Invocation[] invocations;
    private int next;
    private int provider;

    @Setup
    public void setUp() {
        providers = WeftFixtures.constantInvokers(invokers, "equal");
        consumerUrl = URL.valueOf(Workload.consumerUrl("cluster=failover&loadbalance=random"));
        directory = new StaticDirectory<>(consumerUrl, providers);
        random = ExtensionLoader.getExtensionLoader(LoadBalance.class).getExtension("random");
        arguments = Arguments.all();
        invocations = WeftFixtures.invocations();
        CallStats callStats = CallStats.of(new ExtensionDirector(WeftBreakdownBenchmark.class.getClassLoader()));
        counted = statsOf(callStats, providers, stats -> { });
        timed = statsOf(callStats, WeftFixtures.constantInvokers(invokers, "equal"), InvokerStats::timeLatency);
    }

    /** The floor of {@code ClusterBenchmark.weft}: its fresh invocation and one provider call, no cluster. */
    @Benchmark
    public Object invocationAndCall() {
        Invocation invocation = WeftFixtures.invocation(arguments[next++ & (Workload.ARGUMENT_COUNT - 1)]);
        return providers.get(nextProvider()).invoke(invocation).getValue();
    }

    /** {@link #invocationAndCall()} with the provider chosen by {@code random}: all but the cluster's own work. */
    @Benchmark
    public Object invocationBalancerAndCall() {
        Invocation invocation = WeftFixtures.invocation(arguments[next++ & (Workload.ARGUMENT_COUNT - 1)]);
        return random.select(providers, consumerUrl, invocation).invoke(invocation).getValue();
    }

    @Benchmark
    public Object directoryList() {
        return directory.list(invocations[next++ & (Workload.ARGUMENT_COUNT - 1)]);
    }

    /** The statistics of each of {@code providers}, with {@code tracking} turned on. */
    private static InvokerStats[] statsOf(CallStats callStats, List<Invoker<Greeter>> providers, Consumer<InvokerStats> tracking) {
        InvokerStats[] stats = new InvokerStats[providers.size()];
        for (int i = 0; i < stats.length; i++) {
            stats[i] = callStats.get(providers.get(i));
            tracking.accept(stats[i]);
        }
        return stats;
    }

    /** One successful call's bookkeeping on the next provider's statistics, as the cluster records it. */
    private InvokerStats recordOneCall(InvokerStats[] providers) {
        InvokerStats stats = providers[nextProvider()];
        stats.endCall(stats.startCall(), true);
        return stats;
    }

    /** The next provider index, cycling (a plain {@code next++ % n} would overflow on a fast benchmark). */
    private int nextProvider() {
        int index = provider;
        provider = index + 1 == invokers ? 0 : index + 1;
        return index;
    }

    @Benchmark
    public Object statsCounted() {
        return recordOneCall(counted);
    }

    @Benchmark
    public Object statsTimed() {
        return recordOneCall(timed);
    }
}
