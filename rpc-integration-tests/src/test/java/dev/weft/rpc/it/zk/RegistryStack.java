package dev.weft.rpc.it.zk;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.registry.Registry;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.registry.RegistryFactory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Objects;

/**
 * A {@link Weft} whose services are registered in, and referred from, a registry: export through
 * {@code Weft} then register the exported URL; refer through a {@link RegistryDirectory} joined by
 * the cluster named in the consumer URL. Closing unregisters first, then closes the {@code Weft}
 * (graceful unexport), then the registry. Not thread-safe for export/refer; calls on the proxies are.
 */
final class RegistryStack implements AutoCloseable {

    private final Weft weft;
    private final Registry registry;
    private final String host;
    private final String application;
    private final Deque<Runnable> owned = new ArrayDeque<>();

    private RegistryStack(String registryUrl, String application) {
        this.application = application;
        this.host = "127.0.0.1";
        this.weft = Weft.builder().application(application).host(host).build();
        this.registry = weft.director().getExtensionLoader(RegistryFactory.class).getAdaptiveExtension()
                .getRegistry(URL.valueOf(registryUrl));
    }

    static RegistryStack connect(String registryUrl, String application) {
        return new RegistryStack(Objects.requireNonNull(registryUrl, "registryUrl"),
                Objects.requireNonNull(application, "application"));
    }

    /** Exports {@code implementation} and registers the URL actually bound (port 0 resolved). */
    <T> Exporter<T> export(Class<T> type, T implementation, String providerUrl) {
        Exporter<T> exporter = weft.export(type, implementation, providerUrl);
        URL registered = exporter.getInvoker().getUrl();
        registry.register(registered);
        owned.push(() -> registry.unregister(registered));
        return exporter;
    }

    /** Unregisters {@code exporter}'s URL, then unexports it gracefully (calls in flight drain). */
    void unexportGracefully(Exporter<?> exporter) {
        registry.unregister(exporter.getInvoker().getUrl());
        exporter.unexport();
    }

    /** A proxy over a registry directory for {@code type} with the consumer parameters {@code k=v&k2=v2}. */
    <T> T refer(Class<T> type, String consumerParameters) {
        return proxy(directory(type, consumerParameters));
    }

    /** The registry directory a {@link #refer} proxy calls through, for tests that watch its state. */
    <T> RegistryDirectory<T> directory(Class<T> type, String consumerParameters) {
        URL consumerUrl = URL.valueOf("consumer://" + host + "/" + type.getName() + "?interface=" + type.getName()
                + "&application=" + application + "&side=consumer"
                + (consumerParameters.isEmpty() ? "" : "&" + consumerParameters));
        RegistryDirectory<T> directory = RegistryDirectory.builder(type, consumerUrl, registry)
                .director(weft.director()).build();
        owned.push(directory::destroy);
        return directory;
    }

    <T> T proxy(RegistryDirectory<T> directory) {
        var invoker = weft.director().getExtensionLoader(Cluster.class).getAdaptiveExtension().join(directory);
        owned.push(invoker::destroy);
        return weft.director().getExtensionLoader(ProxyFactory.class).getAdaptiveExtension().getProxy(invoker);
    }

    Registry registry() {
        return registry;
    }

    @Override
    public void close() {
        while (!owned.isEmpty()) {
            owned.pop().run();
        }
        weft.close();
        try {
            registry.close();
        } catch (Exception e) {
            throw new IllegalStateException("closing registry " + registry, e);
        }
    }
}
