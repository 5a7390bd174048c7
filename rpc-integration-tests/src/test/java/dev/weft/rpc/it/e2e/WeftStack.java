package dev.weft.rpc.it.e2e;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.testing.DelegatingReplies;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
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
    /** What each provider of {@link #providers} answers while its network is up. */
    private final Map<FakeProvider<Greeter>, Reply> serving = new ConcurrentHashMap<>();

    WeftStack() {
        director = new ExtensionDirector(WeftStack.class.getClassLoader());
        cluster = director.getExtensionLoader(Cluster.class).getAdaptiveExtension();
        proxyFactory = director.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension();
    }

    /**
     * In-JVM providers {@code a, b, c, ...}: {@code specs[i]} is the query of provider i's URL
     * (e.g. {@code "weight=5&zone=eu"}); each is a {@link FakeProvider} in front of
     * {@code ProxyFactory.getInvoker(impl, Greeter.class, url)}, so its network can be switched off
     * ({@link #setDown}).
     */
    List<FakeProvider<Greeter>> providers(String... specs) {
        List<FakeProvider<Greeter>> providers = new ArrayList<>();
        for (int i = 0; i < specs.length; i++) {
            String id = String.valueOf((char) ('a' + i));
            URL url = URL.valueOf("weft://10.0.0." + (i + 1) + ":2088" + i + "/" + SERVICE
                    + (specs[i].isEmpty() ? "" : "?" + specs[i]));
            Invoker<Greeter> invoker = proxyFactory.getInvoker(new GreeterImpl(id, served), Greeter.class, url);
            Reply serve = DelegatingReplies.invoker(invoker);
            FakeProvider<Greeter> provider = FakeProvider.at(Greeter.class, url).answering(serve);
            serving.put(provider, serve);
            providers.add(provider);
        }
        return providers;
    }

    /**
     * Switches {@code provider}'s network off (every call fails with a {@code NETWORK_EXCEPTION}
     * before reaching the service) or on again.
     */
    void setDown(FakeProvider<Greeter> provider, boolean down) {
        provider.answering(down ? Reply.networkError() : serving.get(provider));
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
