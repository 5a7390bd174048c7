package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;
import dev.weft.rpc.spi.Wrapper;

import java.util.Objects;

/**
 * The {@link Cluster} wrapper that adds mock support to every cluster strategy: registered in
 * {@code META-INF/rpc/dev.weft.rpc.cluster.Cluster}, so putting the {@code rpc-mock} jar on the
 * class path is all it takes.
 *
 * <p>{@link #join(Directory)} first checks the mock keys of the directory's URL against the
 * service interface and fails with a {@link MockConfigurationException} when they cannot work
 * (before the wrapped cluster builds anything), then wraps the wrapped cluster's invoker in a
 * {@link MockClusterInvoker}, which vetoes later consumer URLs whose mock keys cannot work.
 *
 * <p>Mock classes are called through the {@link ProxyFactory} of the director that created this
 * wrapper (the adaptive one, so the consumer's {@code proxy} key applies), fetched on first use.
 * Mock-class instances belong to the checked configuration of one consumer (one per mock class)
 * and are collected with it, so a consumer's class loader is never kept alive by this wrapper.
 *
 * <p>Thread-safe; one instance serves every consumer of the wrapped cluster.
 */
@Wrapper(order = 1000)
public final class MockClusterWrapper implements Cluster, ExtensionDirectorAware {

    private final Cluster cluster;
    private final MockSupport support;
    private volatile ProxyFactory proxyFactory;
    private volatile ExtensionDirector director;

    /** Wraps {@code cluster}; the loader calls this for every cluster it returns. */
    public MockClusterWrapper(Cluster cluster) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.support = new MockSupport(new ProxyFactoryInvokers());
    }

    /** Wraps {@code cluster}, calling mock classes through {@code proxyFactory}. */
    MockClusterWrapper(Cluster cluster, ProxyFactory proxyFactory) {
        this(cluster);
        this.proxyFactory = Objects.requireNonNull(proxyFactory, "proxyFactory");
    }

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        this.director = Objects.requireNonNull(director, "director");
    }

    /**
     * Checks the mock keys, then joins with the wrapped cluster.
     *
     * @throws MockConfigurationException when the mock keys of the directory URL cannot work
     * @throws RpcException               when the wrapped cluster fails to join
     */
    @Override
    public <T> Invoker<T> join(Directory<T> directory) throws RpcException {
        Objects.requireNonNull(directory, "directory");
        MockInvoker<T> initial = MockInvoker.create(directory.getInterface(), directory.getUrl(), support);
        Invoker<T> joined = cluster.join(directory);
        MockClusterInvoker<T> invoker = new MockClusterInvoker<>(directory, joined, initial, support);
        invoker.listen();
        return invoker;
    }

    /** The wrapped cluster. */
    public Cluster getCluster() {
        return cluster;
    }

    @Override
    public String toString() {
        return "MockClusterWrapper[" + cluster + "]";
    }

    private ProxyFactory proxyFactory() {
        ProxyFactory factory = proxyFactory;
        if (factory == null) {
            ExtensionDirector owner = director != null ? director : ExtensionDirector.getDefault();
            factory = owner.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension();
            proxyFactory = factory;
        }
        return factory;
    }

    /** Mock classes become invokers through the proxy factory, like local services. */
    private final class ProxyFactoryInvokers implements ImplementationInvokers {
        @Override
        public <S> Invoker<S> invokerFor(S implementation, Class<S> type, URL url) {
            return proxyFactory().getInvoker(implementation, type, url);
        }
    }
}
