package dev.weft.rpc.mock;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.Directory;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/** A fake cluster: calls the first listed invoker once (like failfast); counts joins. */
final class FirstInvokerCluster implements Cluster {

    final AtomicInteger joins = new AtomicInteger();

    @Override
    public <T> Invoker<T> join(Directory<T> directory) {
        joins.incrementAndGet();
        return new Invoker<T>() {
            @Override
            public Class<T> getInterface() {
                return directory.getInterface();
            }

            @Override
            public Result invoke(Invocation invocation) {
                List<Invoker<T>> invokers = directory.list(invocation);
                if (invokers.isEmpty()) {
                    throw new RpcException(RpcException.NO_INVOKER_AVAILABLE, "no provider for " + invocation.getMethodName());
                }
                return invokers.get(0).invoke(invocation);
            }

            @Override
            public URL getUrl() {
                return directory.getUrl();
            }

            @Override
            public boolean isAvailable() {
                return directory.isAvailable();
            }

            @Override
            public void destroy() {
                directory.destroy();
            }
        };
    }
}
