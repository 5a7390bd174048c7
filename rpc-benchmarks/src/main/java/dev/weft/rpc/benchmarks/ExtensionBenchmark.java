package dev.weft.rpc.benchmarks;

import java.util.concurrent.TimeUnit;
import org.apache.dubbo.rpc.model.ApplicationModel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code getExtension(name)} of an already created extension ({@code LoadBalance "roundrobin"}),
 * with the loader held by the caller, and with the loader looked up first as framework code does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ExtensionBenchmark {
    /** Not final, so the JIT cannot fold the lookup. */
    private String name = "roundrobin";
    private ApplicationModel dubboApplication;
    private org.apache.dubbo.common.extension.ExtensionLoader<org.apache.dubbo.rpc.cluster.LoadBalance> dubboLoader;

    @Setup
    public void setUp() {
        dubboApplication = ApplicationModel.defaultModel();
        dubboLoader = dubboApplication.getExtensionLoader(org.apache.dubbo.rpc.cluster.LoadBalance.class);
        dubboLoader.getExtension(name);
    }

    @Benchmark
    public Object dubboGetExtension() {
        return dubboLoader.getExtension(name);
    }

    @Benchmark
    public Object dubboLoaderThenGetExtension() {
        return dubboApplication.getExtensionLoader(org.apache.dubbo.rpc.cluster.LoadBalance.class).getExtension(name);
    }
}
