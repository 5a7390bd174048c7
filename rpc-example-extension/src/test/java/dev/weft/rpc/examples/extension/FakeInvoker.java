package dev.weft.rpc.examples.extension;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;

/** A provider invoker that only has a URL; enough for a balancer. */
final class FakeInvoker implements Invoker<Runnable> {

    private final URL url;

    FakeInvoker(String url) {
        this.url = URL.valueOf(url);
    }

    static FakeInvoker provider(String host, String parameters) {
        return new FakeInvoker("weft://" + host + ":20880/java.lang.Runnable?" + parameters);
    }

    @Override
    public Class<Runnable> getInterface() {
        return Runnable.class;
    }

    @Override
    public Result invoke(Invocation invocation) {
        return RpcResult.of(url.getHost());
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

    @Override
    public String toString() {
        return url.getHost();
    }
}
