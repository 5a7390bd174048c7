package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;

import java.util.concurrent.atomic.AtomicInteger;

/** A provider invoker that only has a URL and counts how often it is asked for it. */
public final class FakeInvoker implements Invoker<Object> {

    private final String name;
    private final URL url;
    final AtomicInteger urlReads = new AtomicInteger();

    FakeInvoker(String name, URL url) {
        this.name = name;
        this.url = url;
    }

    /** {@code name} served at {@code 10.0.0.<n>:20880} with extra query {@code params} (may be empty). */
    public static FakeInvoker of(String name, int host, String params) {
        String query = params.isEmpty() ? "" : "?" + params;
        return new FakeInvoker(name, URL.valueOf("weft://10.0.0." + host + ":20880/dev.weft.Demo" + query));
    }

    @Override
    public URL getUrl() {
        urlReads.incrementAndGet();
        return url;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public void destroy() {
    }

    @Override
    public Class<Object> getInterface() {
        return Object.class;
    }

    @Override
    public Result invoke(Invocation invocation) {
        return RpcResult.of(name);
    }

    @Override
    public String toString() {
        return name;
    }
}
