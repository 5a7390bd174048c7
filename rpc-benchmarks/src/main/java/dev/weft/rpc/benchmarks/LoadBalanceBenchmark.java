package dev.weft.rpc.benchmarks;

import dev.weft.rpc.spi.ExtensionLoader;
import java.util.List;
import java.util.concurrent.TimeUnit;
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
 * One {@code LoadBalance.select} (and, for Weft, one {@code Picker.pick}, the cluster's per-call
 * path) over 10 or 100 in-JVM invokers, rotating through 64 invocations
 * with distinct arguments (so consistent hashing sees different keys). No call is in flight, so
 * {@code leastactive}/{@code shortestresponse}/{@code p2c} see all providers tied, on both sides.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class LoadBalanceBenchmark {

    /** The Weft side: balancer from Weft's extension loader, Weft URLs and invocations. */
    @State(Scope.Thread)
    public static class WeftState {
        @Param({"random", "roundrobin", "leastactive", "shortestresponse", "consistenthash", "p2c"})
        public String balancer;
        @Param({"10", "100"})
        public int invokers;
        @Param({"equal", "mixed", "warming", "settled"})
        public String weights;

        dev.weft.rpc.loadbalance.LoadBalance loadBalance;
        dev.weft.rpc.loadbalance.Picker<Greeter> picker;
        List<dev.weft.rpc.common.Invoker<Greeter>> list;
        dev.weft.rpc.common.URL consumerUrl;
        dev.weft.rpc.common.Invocation[] invocations;
        int next;

        @Setup
        public void setUp() {
            loadBalance = ExtensionLoader.getExtensionLoader(dev.weft.rpc.loadbalance.LoadBalance.class)
                    .getExtension(balancer);
            list = WeftFixtures.constantInvokers(invokers, weights);
            consumerUrl = dev.weft.rpc.common.URL.valueOf(Workload.consumerUrl("loadbalance=" + balancer));
            invocations = WeftFixtures.invocations();
            picker = loadBalance.picker(list, consumerUrl, invocations[0].getMethodName(),
                    dev.weft.rpc.loadbalance.CallStats.of(dev.weft.rpc.spi.ExtensionDirector.getDefault()));
        }

        dev.weft.rpc.common.Invocation nextInvocation() {
            return invocations[next++ & (Workload.ARGUMENT_COUNT - 1)];
        }
    }

    /** The Dubbo side: balancer from Dubbo's extension loader, Dubbo URLs and invocations. */
    @State(Scope.Thread)
    public static class DubboState {
        @Param({"random", "roundrobin", "leastactive", "shortestresponse", "consistenthash"})
        public String balancer;
        @Param({"10", "100"})
        public int invokers;
        @Param({"equal", "mixed", "warming", "settled"})
        public String weights;

        org.apache.dubbo.rpc.cluster.LoadBalance loadBalance;
        List<org.apache.dubbo.rpc.Invoker<Greeter>> list;
        org.apache.dubbo.common.URL consumerUrl;
        org.apache.dubbo.rpc.Invocation[] invocations;
        int next;

        @Setup
        public void setUp() {
            loadBalance = ApplicationModel.defaultModel()
                    .getExtensionLoader(org.apache.dubbo.rpc.cluster.LoadBalance.class).getExtension(balancer);
            list = DubboFixtures.constantInvokers(invokers, weights);
            consumerUrl = DubboFixtures.url(Workload.consumerUrl("loadbalance=" + balancer));
            invocations = DubboFixtures.invocations();
        }

        org.apache.dubbo.rpc.Invocation nextInvocation() {
            return invocations[next++ & (Workload.ARGUMENT_COUNT - 1)];
        }
    }

    @Benchmark
    public Object dubbo(DubboState s) {
        return s.loadBalance.select(s.list, s.consumerUrl, s.nextInvocation());
    }

    @Benchmark
    public Object weft(WeftState s) {
        return s.loadBalance.select(s.list, s.consumerUrl, s.nextInvocation());
    }

    /** The cluster's per-call path: a picker built once for the list and method, then {@code pick}. */
    @Benchmark
    public Object weftPicker(WeftState s) {
        return s.picker.pick(s.nextInvocation());
    }
}
