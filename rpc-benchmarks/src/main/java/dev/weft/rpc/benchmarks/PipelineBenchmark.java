package dev.weft.rpc.benchmarks;

import java.util.concurrent.TimeUnit;
import org.apache.dubbo.rpc.ProxyFactory;
import org.apache.dubbo.rpc.cluster.Cluster;
import org.apache.dubbo.rpc.cluster.directory.StaticDirectory;
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
 * The whole consumer path against a direct call: javassist proxy -> mock wrapper (no mock
 * configured) -> failover cluster -> random balancer -> provider invoker made by
 * {@code getInvoker(new GreeterImpl(), ...)}, over 10 or 100 providers. Dubbo joins without its
 * cluster filter chain, since Weft has none.
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

    /**
     * Dubbo: {@code Cluster.getCluster(app, "failover", wrap=true)} is what a Dubbo reference gets:
     * failover inside its MockClusterWrapper and ScopeClusterWrapper (the injvm check).
     */
    @State(Scope.Thread)
    public static class DubboState {
        @Param({"10", "100"})
        public int invokers;

        Greeter proxy;

        @Setup
        public void setUp() {
            ApplicationModel application = ApplicationModel.defaultModel();
            ProxyFactory javassist = application.getExtensionLoader(ProxyFactory.class).getExtension("javassist");
            org.apache.dubbo.common.URL consumerUrl =
                    DubboFixtures.url(Workload.consumerUrl("cluster=failover&loadbalance=random"));
            StaticDirectory<Greeter> directory = new StaticDirectory<>(consumerUrl,
                    DubboFixtures.providerInvokers(javassist, invokers, "equal"));
            Cluster cluster = Cluster.getCluster(application, "failover", true);
            proxy = Checks.greeter(javassist.getProxy(cluster.join(directory, false)));
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
}
