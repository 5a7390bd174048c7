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
 * One balancer instance (the extension is a singleton) serving several services in turn, as in an
 * application with many references: each call goes to the next of {@code services} invoker lists
 * of 10 providers (equal weights). With {@code services=1} this is {@link LoadBalanceBenchmark};
 * the difference shows what per-list caching costs when lists take turns.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
public class SharedBalancerBenchmark {

    private static final int INVOKERS = 10;

    /** Weft: the balancer from Weft's loader, one list per service. */
    @State(Scope.Thread)
    public static class WeftState {
        @Param({"random", "roundrobin", "leastactive", "consistenthash"})
        public String balancer;
        @Param({"1", "8"})
        public int services;

        dev.weft.rpc.loadbalance.LoadBalance loadBalance;
        List<dev.weft.rpc.common.Invoker<Greeter>>[] lists;
        dev.weft.rpc.common.URL consumerUrl;
        dev.weft.rpc.common.Invocation[] invocations;
        int next;
        int service;

        @Setup
        @SuppressWarnings({"unchecked", "rawtypes"})
        public void setUp() {
            loadBalance = ExtensionLoader.getExtensionLoader(dev.weft.rpc.loadbalance.LoadBalance.class).getExtension(balancer);
            lists = new List[services];
            for (int i = 0; i < services; i++) {
                lists[i] = WeftFixtures.constantInvokers(INVOKERS, "equal");
            }
            consumerUrl = dev.weft.rpc.common.URL.valueOf(Workload.consumerUrl("loadbalance=" + balancer));
            invocations = WeftFixtures.invocations();
        }

        List<dev.weft.rpc.common.Invoker<Greeter>> nextList() {
            int index = service;
            service = index + 1 == services ? 0 : index + 1;
            return lists[index];
        }
    }

    /** Dubbo: the balancer from Dubbo's loader, one list per service. */
    @State(Scope.Thread)
    public static class DubboState {
        @Param({"random", "roundrobin", "leastactive", "consistenthash"})
        public String balancer;
        @Param({"1", "8"})
        public int services;

        org.apache.dubbo.rpc.cluster.LoadBalance loadBalance;
        List<org.apache.dubbo.rpc.Invoker<Greeter>>[] lists;
        org.apache.dubbo.common.URL consumerUrl;
        org.apache.dubbo.rpc.Invocation[] invocations;
        int next;
        int service;

        @Setup
        @SuppressWarnings({"unchecked", "rawtypes"})
        public void setUp() {
            loadBalance = ApplicationModel.defaultModel()
                    .getExtensionLoader(org.apache.dubbo.rpc.cluster.LoadBalance.class).getExtension(balancer);
            lists = new List[services];
            for (int i = 0; i < services; i++) {
                lists[i] = DubboFixtures.constantInvokers(INVOKERS, "equal");
            }
            consumerUrl = DubboFixtures.url(Workload.consumerUrl("loadbalance=" + balancer));
            invocations = DubboFixtures.invocations();
        }

        List<org.apache.dubbo.rpc.Invoker<Greeter>> nextList() {
            int index = service;
            service = index + 1 == services ? 0 : index + 1;
            return lists[index];
        }
    }

    @Benchmark
    public Object weft(WeftState s) {
        return s.loadBalance.select(s.nextList(), s.consumerUrl, s.invocations[s.next++ & (Workload.ARGUMENT_COUNT - 1)]);
    }

    @Benchmark
    public Object dubbo(DubboState s) {
        return s.loadBalance.select(s.nextList(), s.consumerUrl, s.invocations[s.next++ & (Workload.ARGUMENT_COUNT - 1)]);
    }
}
