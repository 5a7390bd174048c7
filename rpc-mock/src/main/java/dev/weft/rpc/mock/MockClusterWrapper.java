package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.AbstractDirectory;
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
 * {@link MockClusterInvoker}. A directory that takes listeners vetoes every later consumer URL
 * whose mock keys cannot work, and may leave out a refused registry rule at the join itself.
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
     * <p>An {@link AbstractDirectory} gets a {@code MockKeysCheck} as listener first, which vetoes
     * its states whose mock keys cannot work from then on. When it refuses the current state, the
     * directory may publish one without the settings it derived from elsewhere ({@link
     * AbstractDirectory#addListener}: a registry directory leaves out the refused override rules,
     * logged and counted as for a running consumer); the join fails only when the state is still
     * refused, as for a bad mock in the consumer's own URL. Another directory's URL is checked once
     * here and again on each call after it changes.
     *
     * @throws MockConfigurationException when the mock keys of the directory URL cannot work
     * @throws RpcException               when the wrapped cluster fails to join
     */
    @Override
    public <T> Invoker<T> join(Directory<T> directory) throws RpcException {
        Objects.requireNonNull(directory, "directory");
        if (!(directory instanceof AbstractDirectory<T> published)) {
            MockInvoker<T> initial = MockInvoker.create(directory.getInterface(), directory.getUrl(), support);
            return new MockClusterInvoker<>(directory, cluster.join(directory), initial, support);
        }
        MockKeysCheck<T> check = new MockKeysCheck<>(directory.getInterface(), support);
        published.addListener(check);
        try {
            // Every state published since the listener joined passed the check, so this one works.
            MockInvoker<T> initial = MockInvoker.create(directory.getInterface(), directory.getUrl(), support);
            return new MockClusterInvoker<>(directory, cluster.join(directory), initial, support, check);
        } catch (RuntimeException | Error e) {
            published.removeListener(check);
            throw e;
        }
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
