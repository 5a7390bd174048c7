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
 * One call through a generated adaptive extension: read the URL key {@code greeting}, find the
 * extension by that name, call it. The SPI ({@link WeftGreeting} / {@link DubboGreeting}) is
 * trivial so the dispatch dominates.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class AdaptiveBenchmark {
    private String argument = Workload.argument(7);
    private DubboGreeting dubboAdaptive;
    private org.apache.dubbo.common.URL dubboUrl;
    private WeftGreeting weftAdaptive;
    private dev.weft.rpc.common.URL weftUrl;

    @Setup
    public void setUp() {
        dubboAdaptive = ApplicationModel.defaultModel().getExtensionLoader(DubboGreeting.class).getAdaptiveExtension();
        dubboUrl = DubboFixtures.url(Workload.consumerUrl("greeting=hi"));
        check(dubboAdaptive.greet(dubboUrl, argument));
        weftAdaptive = ExtensionLoader.getExtensionLoader(WeftGreeting.class).getAdaptiveExtension();
        weftUrl = dev.weft.rpc.common.URL.valueOf(Workload.consumerUrl("greeting=hi"));
        check(weftAdaptive.greet(weftUrl, argument));
    }

    static void check(String greeting) {
        if (!greeting.startsWith("Hi, ")) {
            throw new IllegalStateException("adaptive dispatch chose the wrong extension: " + greeting);
        }
    }

    @Benchmark
    public String dubbo() {
        return dubboAdaptive.greet(dubboUrl, argument);
    }

    @Benchmark
    public String weft() {
        return weftAdaptive.greet(weftUrl, argument);
    }
}
