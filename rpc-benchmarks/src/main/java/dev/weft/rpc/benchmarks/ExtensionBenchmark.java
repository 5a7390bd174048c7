package dev.weft.rpc.benchmarks;

import dev.weft.rpc.spi.ExtensionLoader;
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
 * {@code getExtension(name)} of an already created extension (the {@code hi} extension of
 * {@link WeftGreeting} / {@link DubboGreeting}): with the loader held by the caller, and with the
 * loader looked up first, as framework code usually does.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ExtensionBenchmark {
    /** Not final, so the JIT cannot fold the lookup. */
    private String name = "hi";
    private ApplicationModel dubboApplication;
    private org.apache.dubbo.common.extension.ExtensionLoader<DubboGreeting> dubboLoader;
    private ExtensionLoader<WeftGreeting> weftLoader;

    @Setup
    public void setUp() {
        dubboApplication = ApplicationModel.defaultModel();
        dubboLoader = dubboApplication.getExtensionLoader(DubboGreeting.class);
        dubboLoader.getExtension(name);
        weftLoader = ExtensionLoader.getExtensionLoader(WeftGreeting.class);
        weftLoader.getExtension(name);
    }

    @Benchmark
    public Object dubboGetExtension() {
        return dubboLoader.getExtension(name);
    }

    @Benchmark
    public Object weftGetExtension() {
        return weftLoader.getExtension(name);
    }

    @Benchmark
    public Object dubboLoaderThenGetExtension() {
        return dubboApplication.getExtensionLoader(DubboGreeting.class).getExtension(name);
    }

    @Benchmark
    public Object weftLoaderThenGetExtension() {
        return ExtensionLoader.getExtensionLoader(WeftGreeting.class).getExtension(name);
    }
}
