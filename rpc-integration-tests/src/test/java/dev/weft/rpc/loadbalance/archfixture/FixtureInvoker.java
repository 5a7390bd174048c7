package dev.weft.rpc.loadbalance.archfixture;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;

/** Architecture-rule fixture: a module's concrete invoker, to be reached only through {@code Invoker}. */
public class FixtureInvoker implements Invoker<Runnable> {
    @Override
    public Class<Runnable> getInterface() {
        return Runnable.class;
    }

    @Override
    public Result invoke(Invocation invocation) {
        return RpcResult.of(null);
    }

    @Override
    public URL getUrl() {
        return URL.valueOf("fixture://h");
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public void destroy() {
    }
}
