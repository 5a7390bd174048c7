package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Protocol;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The protocol {@code stuck}: exports take no calls and every unexport blocks until
 * {@link #release} opens (or 30 s pass), as a drain that never ends would. Declared under
 * {@code stuck-protocol/} in the test resources, so only a director given that root sees it.
 * Thread-safe.
 */
public final class StuckProtocol implements Protocol {

    final CountDownLatch release = new CountDownLatch(1);
    final CountDownLatch unexporting = new CountDownLatch(2);

    @Override
    public int getDefaultPort() {
        return 1;
    }

    @Override
    public <T> Exporter<T> export(Invoker<T> invoker) {
        return new Exporter<>() {
            @Override
            public Invoker<T> getInvoker() {
                return invoker;
            }

            @Override
            public void unexport() {
                unexporting.countDown();
                try {
                    release.await(30, TimeUnit.SECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    @Override
    public <T> Invoker<T> refer(Class<T> type, URL url) {
        throw new RpcException("stuck: exports only");
    }

    @Override
    public void destroy() {
        release.countDown();
    }
}
