package dev.weft.rpc.benchmarks;

import org.apache.dubbo.rpc.ProxyFactory;
import org.apache.dubbo.rpc.cluster.Cluster;
import org.apache.dubbo.rpc.cluster.directory.StaticDirectory;
import org.apache.dubbo.rpc.model.ApplicationModel;

/**
 * Dubbo's whole consumer path, built the way a Dubbo reference builds it minus the registry and
 * the cluster filter chain (Weft has none): the adaptive {@code ProxyFactory} (javassist) for the
 * proxy and the provider invokers, {@code Cluster.getCluster(app, "failover", wrap=true)} as
 * Dubbo's reference code asks for it by name: proxy -> ScopeClusterWrapper -> MockClusterWrapper
 * -> failover -> random -> provider invokers from {@code getInvoker(impl)}.
 */
public final class DubboPipeline {
    private DubboPipeline() {
    }

    /** A proxy over {@code providers} in-JVM providers of {@link GreeterImpl}. */
    public static Greeter build(int providers) {
        ApplicationModel application = ApplicationModel.defaultModel();
        // Adaptive, as Dubbo's ReferenceConfig/ServiceConfig use it; no proxy key: javassist.
        ProxyFactory proxyFactory = application.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension();
        org.apache.dubbo.common.URL consumerUrl =
                DubboFixtures.url(Workload.consumerUrl("cluster=failover&loadbalance=random"));
        StaticDirectory<Greeter> directory = new StaticDirectory<>(consumerUrl,
                DubboFixtures.providerInvokers(proxyFactory, providers, "equal"));
        Cluster cluster = Cluster.getCluster(application, "failover", true);
        return proxyFactory.getProxy(cluster.join(directory, false));
    }
}
