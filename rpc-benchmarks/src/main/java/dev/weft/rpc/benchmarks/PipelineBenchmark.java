package dev.weft.rpc.benchmarks;

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
 * The whole consumer path against a direct call: javassist proxy -> mock wrapper (no mock
 * configured) -> failover cluster -> random balancer -> provider invoker made by
 * {@code getInvoker(new GreeterImpl(), ...)}, over 10 or 100 providers ({@link WeftPipeline},
 * {@link DubboPipeline}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class PipelineBenchmark {

    /** Call arguments and the direct-call baseline. */
    @State(Scope.Thread)
    public static class Calls {
        Greeter direct;
        String[] arguments;
        int next;

        @Setup
        public void setUp() {
            direct = new GreeterImpl();
            arguments = Arguments.all();
        }

        String nextArgument() {
            return arguments[next++ & (Workload.ARGUMENT_COUNT - 1)];
        }
    }

    /** Weft: see {@link WeftPipeline}. */
    @State(Scope.Thread)
    public static class WeftState {
        @Param({"10", "100"})
        public int invokers;

        Greeter proxy;

        @Setup
        public void setUp() {
            proxy = Checks.greeter(WeftPipeline.build(invokers));
        }
    }

    /** Dubbo: see {@link DubboPipeline}. */
    @State(Scope.Thread)
    public static class DubboState {
        @Param({"10", "100"})
        public int invokers;

        Greeter proxy;

        @Setup
        public void setUp() {
            proxy = Checks.greeter(DubboPipeline.build(invokers));
        }
    }

    @Benchmark
    public String direct(Calls calls) {
        return calls.direct.greet(calls.nextArgument());
    }

    @Benchmark
    public String dubbo(DubboState s, Calls calls) {
        return s.proxy.greet(calls.nextArgument());
    }

    @Benchmark
    public String weft(WeftState s, Calls calls) {
        return s.proxy.greet(calls.nextArgument());
    }
}
