package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;

/** A provider invoker calling an implementation by reflection (what a proxy factory would give). */
final class ReflectiveInvoker<T> implements Invoker<T> {

    private final Class<T> type;
    private final T impl;
    private final URL url;

    ReflectiveInvoker(Class<T> type, T impl, URL url) {
        this.type = type;
        this.impl = impl;
        this.url = url;
    }

    @Override
    public Class<T> getInterface() {
        return type;
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        try {
            Method method = type.getMethod(invocation.getMethodName(), invocation.getParameterTypes());
            return RpcResult.of(method.invoke(impl, invocation.getArguments()));
        } catch (InvocationTargetException e) {
            return RpcResult.ofException(e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new RpcException("no such method: " + invocation.getMethodName(), e);
        }
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
