package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.Reply;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code test} protocol: refers fake providers ({@link FakeProvider}) that answer with their
 * address, and counts every refer and destroy. One instance per director (no static state). A URL
 * with the key {@code refuse} is refused; one with {@code unloadable} fails as a protocol whose
 * classes cannot be loaded ({@link NoClassDefFoundError}).
 *
 * <p>It stays here rather than in {@code rpc-testing}, which depends on {@code rpc-common} and
 * {@code rpc-spi} only and so cannot implement {@link Protocol}; the directory tests are its only user.
 */
public final class TestProtocol implements Protocol {

    final AtomicInteger referred = new AtomicInteger();
    /** Every provider referred so far, in order. */
    final List<FakeProvider<?>> invokers = new CopyOnWriteArrayList<>();

    @Override
    public int getDefaultPort() {
        return 0;
    }

    @Override
    public <T> Exporter<T> export(Invoker<T> invoker) {
        throw new UnsupportedOperationException("test protocol refers only");
    }

    @Override
    public <T> Invoker<T> refer(Class<T> type, URL url) {
        if (url.hasParameter("unloadable")) {
            throw new NoClassDefFoundError("dev/weft/Missing (referring " + url + ")");
        }
        if (url.hasParameter("refuse")) {
            throw new RpcException("refused to refer " + url);
        }
        referred.incrementAndGet();
        FakeProvider<T> invoker = FakeProvider.at(type, url).answering(Reply.value(url.getAddress()));
        invokers.add(invoker);
        return invoker;
    }

    @Override
    public void destroy() {
    }

    /** Referred providers destroyed so far. */
    int destroyed() {
        return (int) invokers.stream().filter(FakeProvider::isDestroyed).count();
    }

    int live() {
        return referred.get() - destroyed();
    }
}
