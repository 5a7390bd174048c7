package dev.weft.rpc.benchmarks;

import dev.weft.rpc.metrics.micrometer.WeftMetrics;
import dev.weft.rpc.spi.ExtensionDirector;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

import java.util.concurrent.TimeUnit;

/**
 * The in-JVM cost of the observability modules: one call through a {@code Weft} consumer to a
 * {@code Weft} provider on the {@code injvm} protocol (proxy, call chain, mock wrapper, failover,
 * consumer chain, provider chain, implementation), with nothing bound, metrics bound (a
 * {@code SimpleMeterRegistry}), or metrics and tracing bound ({@link #call}); and the in-JVM
 * pipeline of the speed bars ({@link WeftPipeline}: proxy, call chain, mock wrapper, failover,
 * random, provider invokers without a protocol) with the default director's metrics unbound or
 * bound ({@link #pipeline}). The overhead is {@code x(metrics) - x(off)}; the bar is at most 150 ns.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@State(Scope.Benchmark)
public class ObservabilityBenchmark {

    @Param({"off", "metrics", "both"})
    public String binding;

    private ObservedWefts wefts;
    private Greeter pipeline;
    private String[] arguments;
    private int next;

    @Setup(Level.Trial)
    public void setUp() {
        ObservedWefts.Binding bound = ObservedWefts.Binding.of(binding);
        wefts = new ObservedWefts(bound, "injvm");
        if (bound != ObservedWefts.Binding.OFF) {
            new WeftMetrics(ExtensionDirector.getDefault()).bindTo(new SimpleMeterRegistry());
        }
        pipeline = WeftPipeline.build(10);
        arguments = Arguments.all();
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        wefts.close();
    }

    @Benchmark
    public String call() {
        return wefts.greeter.greet(arguments[next++ & (Workload.ARGUMENT_COUNT - 1)]);
    }

    @Benchmark
    public String pipeline() {
        return pipeline.greet(arguments[next++ & (Workload.ARGUMENT_COUNT - 1)]);
    }
}
