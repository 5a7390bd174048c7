package dev.weft.rpc.it.e2e;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The whole Weft consumer stack built only from adaptive extensions of one private
 * {@link ExtensionDirector}: {@code Cluster} (wrapped by rpc-mock's wrapper because its jar is on
 * the class path) and {@code ProxyFactory}, every choice made by URL keys.
 */
final class WeftStack implements AutoCloseable {

    static final String SERVICE = Greeter.class.getName();

    final ExtensionDirector director;
    final Cluster cluster;
    final ProxyFactory proxyFactory;
    /** Provider ids in the order the providers served calls. */
    final Queue<String> served = new ConcurrentLinkedQueue<>();

    WeftStack() {
        director = new ExtensionDirector(WeftStack.class.getClassLoader());
        cluster = director.getExtensionLoader(Cluster.class).getAdaptiveExtension();
        proxyFactory = director.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension();
    }

    /**
     * In-JVM providers {@code a, b, c, ...}: {@code specs[i]} is the query of provider i's URL
     * (e.g. {@code "weight=5&zone=eu"}); each is {@code ProxyFactory.getInvoker(impl, Greeter.class, url)}.
     */
    List<SwitchableInvoker> providers(String... specs) {
        List<SwitchableInvoker> providers = new ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            String id = String.valueOf((char) ('a' + i));
            URL url = URL.valueOf("weft://10.0.0." + (i + 1) + ":2088" + i + "/" + SERVICE
                    + (specs[i].isEmpty() ? "" : "?" + specs[i]));
            Invoker<Greeter> invoker = proxyFactory.getInvoker(new GreeterImpl(id, served), Greeter.class, url);
            providers.add(new SwitchableInvoker(id, invoker));
        }
        return providers;
    }

    /** The consumer proxy: {@code Cluster.join(directory)} then {@code ProxyFactory.getProxy}. */
    Greeter consumer(Directory<Greeter> directory) {
        Invoker<Greeter> clusterInvoker = cluster.join(directory);
        return proxyFactory.getProxy(clusterInvoker);
    }

    static URL consumerUrl(String query) {
        return URL.valueOf("consumer://10.0.0.100/" + SERVICE + (query.isEmpty() ? "" : "?" + query));
    }

    @Override
    public void close() {
        director.close();
    }
}
