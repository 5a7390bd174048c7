package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Protocol;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code test} protocol: refers invokers that answer with their address, counting every
 * refer and destroy. One instance per director (no static state). A call to a method named
 * {@code block} waits until {@link #release()} (to hold calls in flight).
 */
public final class TestProtocol implements Protocol {

    final AtomicInteger referred = new AtomicInteger();
    final AtomicInteger destroyed = new AtomicInteger();
    final List<TestInvoker<?>> invokers = new CopyOnWriteArrayList<>();
    private volatile CountDownLatch gate = new CountDownLatch(0);

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
        if (url.hasParameter("refuse")) {
            throw new RpcException("refused to refer " + url);
        }
        referred.incrementAndGet();
        TestInvoker<T> invoker = new TestInvoker<>(type, url);
        invokers.add(invoker);
        return invoker;
    }

    @Override
    public void destroy() {
    }

    /** Makes calls to {@code block} wait until {@link #release()}. */
    void hold() {
        gate = new CountDownLatch(1);
    }

    void release() {
        gate.countDown();
    }

    int live() {
        return referred.get() - destroyed.get();
    }

    final class TestInvoker<T> implements Invoker<T> {
        private final Class<T> type;
        private final URL url;
        final AtomicInteger calls = new AtomicInteger();
        final CountDownLatch started = new CountDownLatch(1);
        volatile boolean isDestroyed;

        TestInvoker(Class<T> type, URL url) {
            this.type = type;
            this.url = url;
        }

        @Override
        public Class<T> getInterface() {
            return type;
        }

        @Override
        public URL getUrl() {
            return url;
        }

        @Override
        public boolean isAvailable() {
            return !isDestroyed;
        }

        @Override
        public Result invoke(Invocation invocation) {
            if (isDestroyed) {
                throw new RpcException(RpcException.NETWORK_EXCEPTION, "destroyed: " + url);
            }
            calls.incrementAndGet();
            if (invocation.getMethodName().equals("block")) {
                started.countDown();
                try {
                    if (!gate.await(30, TimeUnit.SECONDS)) {
                        throw new RpcException(RpcException.TIMEOUT_EXCEPTION, "gate never opened");
                    }
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new RpcException(e.getMessage(), e);
                }
            }
            return RpcResult.of(url.getAddress());
        }

        @Override
        public void destroy() {
            if (!isDestroyed) {
                isDestroyed = true;
                destroyed.incrementAndGet();
            }
        }
    }
}
