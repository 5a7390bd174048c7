package dev.weft.rpc.it.e2e;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Protocol;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * The {@code local} protocol of these tests: {@code local://host:port/Greeter?id=a} refers an
 * in-JVM {@link Greeter} answering as provider {@code a}. Counts refers and destroys (one
 * instance per director).
 */
public final class LocalProtocol implements Protocol {

    final AtomicInteger referred = new AtomicInteger();
    final AtomicInteger destroyed = new AtomicInteger();

    @Override
    public int getDefaultPort() {
        return 0;
    }

    @Override
    public <T> Exporter<T> export(Invoker<T> invoker) {
        throw new UnsupportedOperationException("the local test protocol only refers");
    }

    @Override
    public <T> Invoker<T> refer(Class<T> type, URL url) {
        referred.incrementAndGet();
        String id = url.getParameter("id", "?");
        return new Invoker<>() {
            private volatile boolean gone;

            @Override
            public Class<T> getInterface() {
                return type;
            }

            @Override
            public Result invoke(Invocation invocation) throws RpcException {
                if (gone) {
                    throw new RpcException(RpcException.NETWORK_EXCEPTION, "destroyed: " + url);
                }
                Object[] args = invocation.getArguments();
                return switch (invocation.getMethodName()) {
                    case "greet" -> RpcResult.of(id + ": hello " + args[0]);
                    case "add" -> RpcResult.of((Integer) args[0] + (Integer) args[1]);
                    default -> RpcResult.ofException(new UnsupportedOperationException(invocation.getMethodName()));
                };
            }

            @Override
            public URL getUrl() {
                return url;
            }

            @Override
            public boolean isAvailable() {
                return !gone;
            }

            @Override
            public void destroy() {
                if (!gone) {
                    gone = true;
                    destroyed.incrementAndGet();
                }
            }
        };
    }

    @Override
    public void destroy() {
    }
}
