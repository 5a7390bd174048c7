package dev.weft.rpc.mock;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/** A provider (or mock-protocol) invoker that answers by a script and counts its calls. */
final class ScriptedInvoker<T> implements Invoker<T> {

    final AtomicInteger calls = new AtomicInteger();
    private final Class<T> type;
    private final URL url;
    private volatile Function<Invocation, Result> script;

    ScriptedInvoker(Class<T> type, String url, Function<Invocation, Result> script) {
        this.type = type;
        this.url = URL.valueOf(url);
        this.script = script;
    }

    void answer(Function<Invocation, Result> next) {
        this.script = next;
    }

    static RpcException networkError() {
        return new RpcException(RpcException.NETWORK_EXCEPTION, "connection refused by 10.0.0.2:20880");
    }

    @Override
    public Class<T> getInterface() {
        return type;
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        calls.incrementAndGet();
        return script.apply(invocation);
    }

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public void destroy() {
    }
}
