package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.filter.CallContext;

import java.util.Objects;

/**
 * What a referred proxy calls when the consumer chain has the {@code context} filter: each call
 * takes the caller's {@code CallContext} attachments on the caller's thread, before the cluster.
 * A cluster may run the call's attempts on other threads ({@code forking}) or later
 * ({@code failback}), where the filter would find another thread's context or none. Thread-safe.
 */
final class CallerContextInvoker<T> implements Invoker<T> {

    private final Invoker<T> cluster;
    private final CallContext context;

    CallerContextInvoker(Invoker<T> cluster, CallContext context) {
        this.cluster = Objects.requireNonNull(cluster, "cluster");
        this.context = Objects.requireNonNull(context, "context");
    }

    @Override
    public Class<T> getInterface() {
        return cluster.getInterface();
    }

    @Override
    public URL getUrl() {
        return cluster.getUrl();
    }

    @Override
    public boolean isAvailable() {
        return cluster.isAvailable();
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        return cluster.invoke(context.capture(invocation));
    }

    @Override
    public void destroy() {
        cluster.destroy();
    }

    @Override
    public String toString() {
        return cluster.toString();
    }
}
