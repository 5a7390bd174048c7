package dev.weft.rpc.benchmarks;

import dev.weft.rpc.spi.ExtensionLoader;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.rpc.ProxyFactory;
import org.apache.dubbo.rpc.model.ApplicationModel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Round trip {@code getProxy(getInvoker(impl))}: a consumer proxy straight onto the provider-side
 * invoker of {@link GreeterImpl}, for each framework's javassist and jdk factory, against a direct
 * call of the implementation.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ProxyBenchmark {
    private Greeter direct;
    private Greeter dubboJavassist;
    private Greeter dubboJdk;
    private Greeter weftJavassist;
    private Greeter weftJdk;
    private String[] arguments;
    private int next;

    @Setup
    public void setUp() {
        direct = new GreeterImpl();
        arguments = Arguments.all();
        dubboJavassist = dubboRoundTrip("javassist");
        dubboJdk = dubboRoundTrip("jdk");
        weftJavassist = weftRoundTrip("javassist");
        weftJdk = weftRoundTrip("jdk");
    }

    private static Greeter weftRoundTrip(String name) {
        dev.weft.rpc.proxy.ProxyFactory factory =
                ExtensionLoader.getExtensionLoader(dev.weft.rpc.proxy.ProxyFactory.class).getExtension(name);
        dev.weft.rpc.common.URL url = dev.weft.rpc.common.URL.valueOf(Workload.providerUrl(0, "equal"));
        return Checks.greeter(factory.getProxy(factory.getInvoker(new GreeterImpl(), Greeter.class, url)));
    }

    private static Greeter dubboRoundTrip(String name) {
        ProxyFactory factory = ApplicationModel.defaultModel().getExtensionLoader(ProxyFactory.class).getExtension(name);
        org.apache.dubbo.common.URL url = DubboFixtures.url(Workload.providerUrl(0, "equal"));
        return Checks.greeter(factory.getProxy(factory.getInvoker(new GreeterImpl(), Greeter.class, url)));
    }

    private String nextArgument() {
        return arguments[next++ & (Workload.ARGUMENT_COUNT - 1)];
    }

    @Benchmark
    public String direct() {
        return direct.greet(nextArgument());
    }

    @Benchmark
    public String dubboJavassist() {
        return dubboJavassist.greet(nextArgument());
    }

    @Benchmark
    public String dubboJdk() {
        return dubboJdk.greet(nextArgument());
    }

    @Benchmark
    public String weftJavassist() {
        return weftJavassist.greet(nextArgument());
    }

    @Benchmark
    public String weftJdk() {
        return weftJdk.greet(nextArgument());
    }
}
