package dev.weft.rpc.it.e2e;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A provider invoker (made by {@code ProxyFactory.getInvoker}) whose network can be switched off:
 * while down, every call fails with a {@code NETWORK_EXCEPTION} before reaching the provider.
 */
final class SwitchableInvoker implements Invoker<Greeter> {

    private final Invoker<Greeter> delegate;
    private final String id;
    private final AtomicBoolean down = new AtomicBoolean();

    SwitchableInvoker(String id, Invoker<Greeter> delegate) {
        this.id = id;
        this.delegate = delegate;
    }

    void setDown(boolean isDown) {
        down.set(isDown);
    }

    String id() {
        return id;
    }

    @Override
    public Class<Greeter> getInterface() {
        return delegate.getInterface();
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        if (down.get()) {
            throw new RpcException(RpcException.NETWORK_EXCEPTION, "provider " + id + " unreachable: " + getUrl());
        }
        return delegate.invoke(invocation);
    }

    @Override
    public URL getUrl() {
        return delegate.getUrl();
    }

    @Override
    public boolean isAvailable() {
        return delegate.isAvailable();
    }

    @Override
    public void destroy() {
        delegate.destroy();
    }

    @Override
    public String toString() {
        return id + (down.get() ? " (down)" : "");
    }
}
