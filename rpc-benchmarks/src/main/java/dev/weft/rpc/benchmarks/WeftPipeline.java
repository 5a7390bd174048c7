package dev.weft.rpc.benchmarks;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.MockClusterInvoker;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.spi.ExtensionLoader;

/**
 * Weft's whole consumer path, built only from adaptive extensions and URL keys as a user would:
 * javassist proxy -> MockClusterInvoker (no mock configured) -> failover -> random -> provider
 * invokers from {@code getInvoker(impl)}.
 */
public final class WeftPipeline {
    private WeftPipeline() {
    }

    /**
     * A proxy over {@code providers} in-JVM providers of {@link GreeterImpl}.
     *
     * @throws IllegalStateException if the mock wrapper is missing (e.g. a descriptor lost in shading)
     */
    public static Greeter build(int providers) {
        ProxyFactory proxyFactory = ExtensionLoader.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension();
        Cluster cluster = ExtensionLoader.getExtensionLoader(Cluster.class).getAdaptiveExtension();
        URL consumerUrl = URL.valueOf(Workload.consumerUrl("cluster=failover&loadbalance=random"));
        Invoker<Greeter> invoker = cluster.join(new StaticDirectory<>(consumerUrl,
                WeftFixtures.providerInvokers(proxyFactory, providers, "equal")));
        // The mock wrapper's invoker, alone or inside the call chain (filters of the call group, such as metrics)
        if (!String.valueOf(invoker).contains(MockClusterInvoker.class.getSimpleName() + "[")) {
            throw new IllegalStateException("cluster invoker: " + invoker.getClass().getName()
                    + " (expected: wrapped in " + MockClusterInvoker.class.getName() + ")");
        }
        return proxyFactory.getProxy(invoker);
    }
}
