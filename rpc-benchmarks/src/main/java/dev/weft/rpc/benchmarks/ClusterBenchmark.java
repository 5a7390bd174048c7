package dev.weft.rpc.benchmarks;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.spi.ExtensionLoader;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.rpc.ProxyFactory;
import org.apache.dubbo.rpc.cluster.directory.StaticDirectory;
import org.apache.dubbo.rpc.cluster.support.FailoverClusterInvoker;
import org.apache.dubbo.rpc.model.ApplicationModel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * {@code failover} + {@code random} cluster invoke over 10 or 100 in-JVM invokers that answer at
 * once, for each weight profile of {@link Workload#providerUrl}. Like for like: the bare cluster invoker of each framework (no mock wrapper,
 * no Dubbo cluster filters); Dubbo is also measured through its javassist proxy, as in issue 4.
 * Each call gets a fresh invocation, as a proxy would create (Dubbo's cluster invoker records
 * every invoked invoker in the invocation, so reusing one would grow it without bound).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class ClusterBenchmark {

    /** Weft: the unwrapped {@code failover} extension joined over a {@code StaticDirectory}. */
    @State(Scope.Thread)
    public static class WeftState {
        @Param({"10", "100"})
        public int invokers;
        @Param({"equal", "mixed", "warming"})
        public String weights;

        dev.weft.rpc.common.Invoker<Greeter> clusterInvoker;
        String[] arguments;
        int next;

        @Setup
        public void setUp() {
            dev.weft.rpc.common.URL consumerUrl = dev.weft.rpc.common.URL.valueOf(
                    Workload.consumerUrl("cluster=failover&loadbalance=random"));
            clusterInvoker = ExtensionLoader.getExtensionLoader(Cluster.class).getExtension("failover", false)
                    .join(new dev.weft.rpc.cluster.StaticDirectory<>(consumerUrl,
                            WeftFixtures.constantInvokers(invokers, weights)));
            arguments = Arguments.all();
        }
    }

    /** Dubbo: {@code FailoverClusterInvoker} over a {@code StaticDirectory}. */
    @State(Scope.Thread)
    public static class DubboState {
        @Param({"10", "100"})
        public int invokers;
        @Param({"equal", "mixed", "warming"})
        public String weights;

        org.apache.dubbo.rpc.Invoker<Greeter> clusterInvoker;
        Greeter proxy;
        String[] arguments;
        int next;

        @Setup
        public void setUp() {
            org.apache.dubbo.common.URL consumerUrl =
                    DubboFixtures.url(Workload.consumerUrl("cluster=failover&loadbalance=random"));
            StaticDirectory<Greeter> directory =
                    new StaticDirectory<>(consumerUrl, DubboFixtures.constantInvokers(invokers, weights));
            clusterInvoker = new FailoverClusterInvoker<>(directory);
            ProxyFactory javassist = ApplicationModel.defaultModel().getExtensionLoader(ProxyFactory.class)
                    .getExtension("javassist");
            proxy = javassist.getProxy(clusterInvoker);
            arguments = Arguments.all();
        }
    }

    @Benchmark
    public Object dubbo(DubboState s) {
        return s.clusterInvoker.invoke(DubboFixtures.invocation(s.arguments[s.next++ & (Workload.ARGUMENT_COUNT - 1)]))
                .getValue();
    }

    @Benchmark
    public String dubboViaProxy(DubboState s) {
        return s.proxy.greet(s.arguments[s.next++ & (Workload.ARGUMENT_COUNT - 1)]);
    }

    @Benchmark
    public Object weft(WeftState s) {
        return s.clusterInvoker.invoke(WeftFixtures.invocation(s.arguments[s.next++ & (Workload.ARGUMENT_COUNT - 1)]))
                .getValue();
    }
}
