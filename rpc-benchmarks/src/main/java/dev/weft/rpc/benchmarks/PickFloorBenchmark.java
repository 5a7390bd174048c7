package dev.weft.rpc.benchmarks;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.LoadBalance;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
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
 * The least any balancer can cost in {@link LoadBalanceBenchmark}'s harness: a balancer that
 * only returns {@code invokers.get(ThreadLocalRandom.current().nextInt(size))} (no weights, no
 * checks), called through the {@code LoadBalance} interface on the same rotating invocations.
 * A ratio bar that asks for less than this is out of reach for every implementation.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PickFloorBenchmark {

    /** Uniform pick and nothing else; not registered anywhere. */
    static final class BareRandom implements LoadBalance {
        @Override
        public <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) {
            return invokers.get(ThreadLocalRandom.current().nextInt(invokers.size()));
        }
    }

    @State(Scope.Thread)
    public static class FloorState {
        @Param({"10", "100"})
        public int invokers;

        LoadBalance loadBalance;
        List<Invoker<Greeter>> list;
        URL consumerUrl;
        Invocation[] invocations;
        int next;

        @Setup
        public void setUp() {
            loadBalance = new BareRandom();
            list = WeftFixtures.constantInvokers(invokers, "equal");
            consumerUrl = URL.valueOf(Workload.consumerUrl("loadbalance=random"));
            invocations = WeftFixtures.invocations();
        }
    }

    @Benchmark
    public Object bareRandomPick(FloorState s) {
        return s.loadBalance.select(s.list, s.consumerUrl, s.invocations[s.next++ & (Workload.ARGUMENT_COUNT - 1)]);
    }
}
