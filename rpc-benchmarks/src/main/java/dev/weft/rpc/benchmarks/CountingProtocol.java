package dev.weft.rpc.benchmarks;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The {@value #NAME} protocol of {@link RegistryBenchmark}: refers a provider URL
 * {@code counting://host:port/...} through the real {@code weft} protocol of the same director
 * (unwrapped: the counting invoker already gets the filter chain) and counts the invokers it
 * created and those destroyed. One instance per director; thread-safe.
 */
public final class CountingProtocol implements Protocol, ExtensionDirectorAware {

    static final String NAME = "counting";

    private final AtomicLong created = new AtomicLong();
    private final AtomicLong destroyed = new AtomicLong();
    private ExtensionDirector director;

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        this.director = director;
    }

    @Override
    public int getDefaultPort() {
        return 0;
    }

    @Override
    public <T> Exporter<T> export(Invoker<T> invoker) throws RpcException {
        throw new UnsupportedOperationException("the counting protocol only refers (export with weft)");
    }

    @Override
    public <T> Invoker<T> refer(Class<T> type, URL url) throws RpcException {
        Invoker<T> weft = director.getExtensionLoader(Protocol.class).getExtension("weft", false)
                .refer(type, url.withProtocol("weft"));
        created.incrementAndGet();
        return new Counted<>(weft, url);
    }

    @Override
    public void destroy() {
    }

    long created() {
        return created.get();
    }

    long destroyed() {
        return destroyed.get();
    }

    long live() {
        return created.get() - destroyed.get();
    }

    private final class Counted<T> implements Invoker<T> {
        private final Invoker<T> delegate;
        private final URL url;
        private final AtomicBoolean gone = new AtomicBoolean();

        Counted(Invoker<T> delegate, URL url) {
            this.delegate = delegate;
            this.url = url;
        }

        @Override
        public Class<T> getInterface() {
            return delegate.getInterface();
        }

        @Override
        public Result invoke(Invocation invocation) throws RpcException {
            return delegate.invoke(invocation);
        }

        @Override
        public URL getUrl() {
            return url;
        }

        @Override
        public boolean isAvailable() {
            return delegate.isAvailable();
        }

        @Override
        public void destroy() {
            if (gone.compareAndSet(false, true)) {
                delegate.destroy();
                destroyed.incrementAndGet();
            }
        }
    }
}
