package dev.weft.rpc.benchmarks;

import dev.weft.rpc.spi.ExtensionLoader;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.apache.dubbo.rpc.cluster.Cluster;
import org.apache.dubbo.rpc.cluster.directory.StaticDirectory;
import org.apache.dubbo.rpc.cluster.support.wrapper.MockClusterInvoker;
import org.apache.dubbo.rpc.model.ApplicationModel;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The pass-through cost of the mock wrapper when no mock is configured: the same failover +
 * random cluster invoke over 10 constant invokers, with and without the framework's mock wrapper.
 * The overhead is {@code xWrapped - xBare}. Each call gets a fresh invocation (see {@link ClusterBenchmark}).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class MockOverheadBenchmark {
    static final int INVOKERS = 10;

    /** Weft: {@code getExtension("failover")} (wrapped by MockClusterWrapper) and {@code ("failover", false)}. */
    @State(Scope.Thread)
    public static class WeftState {
        dev.weft.rpc.common.Invoker<Greeter> wrapped;
        dev.weft.rpc.common.Invoker<Greeter> bare;
        String[] arguments;
        int next;

        @Setup
        public void setUp() {
            ExtensionLoader<dev.weft.rpc.cluster.Cluster> clusters =
                    ExtensionLoader.getExtensionLoader(dev.weft.rpc.cluster.Cluster.class);
            dev.weft.rpc.common.URL consumerUrl = dev.weft.rpc.common.URL.valueOf(
                    // the mock wrapper alone: no call-group filters, which the observability
                    // modules on this module's class path would otherwise add around it
                    Workload.consumerUrl("cluster=failover&loadbalance=random&filter=-default"));
            List<dev.weft.rpc.common.Invoker<Greeter>> providers = WeftFixtures.constantInvokers(INVOKERS, "equal");
            dev.weft.rpc.cluster.StaticDirectory<Greeter> directory =
                    new dev.weft.rpc.cluster.StaticDirectory<>(consumerUrl, providers);
            wrapped = clusters.getExtension("failover").join(directory);
            bare = clusters.getExtension("failover", false).join(directory);
            arguments = Arguments.all();
        }

        dev.weft.rpc.common.Invocation nextInvocation() {
            return WeftFixtures.invocation(arguments[next++ & (Workload.ARGUMENT_COUNT - 1)]);
        }
    }

    /** Dubbo: the bare failover invoker, and the same inside Dubbo's {@code MockClusterInvoker}. */
    @State(Scope.Thread)
    public static class DubboState {
        org.apache.dubbo.rpc.Invoker<Greeter> wrapped;
        org.apache.dubbo.rpc.Invoker<Greeter> bare;
        String[] arguments;
        int next;

        @Setup
        public void setUp() {
            ApplicationModel application = ApplicationModel.defaultModel();
            org.apache.dubbo.common.URL consumerUrl =
                    DubboFixtures.url(Workload.consumerUrl("cluster=failover&loadbalance=random"));
            List<org.apache.dubbo.rpc.Invoker<Greeter>> providers = DubboFixtures.constantInvokers(INVOKERS, "equal");
            StaticDirectory<Greeter> directory = new StaticDirectory<>(consumerUrl, providers);
            bare = Cluster.getCluster(application, "failover", false).join(directory, false);
            // Only the mock wrapper: Dubbo's loader would also add its ScopeClusterWrapper (injvm checks).
            wrapped = new MockClusterInvoker<>(directory, bare);
            arguments = Arguments.all();
        }

        org.apache.dubbo.rpc.Invocation nextInvocation() {
            return DubboFixtures.invocation(arguments[next++ & (Workload.ARGUMENT_COUNT - 1)]);
        }
    }

    @Benchmark
    public Object dubboWrapped(DubboState s) {
        return s.wrapped.invoke(s.nextInvocation()).getValue();
    }

    @Benchmark
    public Object dubboBare(DubboState s) {
        return s.bare.invoke(s.nextInvocation()).getValue();
    }

    @Benchmark
    public Object weftWrapped(WeftState s) {
        return s.wrapped.invoke(s.nextInvocation()).getValue();
    }

    @Benchmark
    public Object weftBare(WeftState s) {
        return s.bare.invoke(s.nextInvocation()).getValue();
    }
}
