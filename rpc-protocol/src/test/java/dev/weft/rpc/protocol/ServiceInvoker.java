package dev.weft.rpc.protocol;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A provider invoker over an implementation object, as a proxy factory would build one: the
 * method's own exceptions travel in the result. Records whether it was destroyed.
 */
public class ServiceInvoker<T> implements Invoker<T> {

    private final Class<T> type;
    private final T implementation;
    private final URL url;
    private final AtomicBoolean destroyed = new AtomicBoolean();

    public ServiceInvoker(Class<T> type, T implementation, URL url) {
        this.type = type;
        this.implementation = implementation;
        this.url = url;
    }

    public ServiceInvoker(Class<T> type, T implementation, String url) {
        this(type, implementation, URL.valueOf(url));
    }

    @Override
    public Class<T> getInterface() {
        return type;
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        Method method;
        try {
            method = type.getMethod(invocation.getMethodName(), invocation.getParameterTypes());
        } catch (NoSuchMethodException e) {
            throw new RpcException("No method " + invocation.getMethodName() + " in " + type.getName(), e);
        }
        try {
            return RpcResult.of(method.invoke(implementation, invocation.getArguments()));
        } catch (InvocationTargetException e) {
            return RpcResult.ofException(e.getCause());
        } catch (IllegalAccessException e) {
            throw new RpcException("Cannot call " + method, e);
        }
    }

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public boolean isAvailable() {
        return !destroyed.get();
    }

    @Override
    public void destroy() {
        destroyed.set(true);
    }

    public boolean isDestroyed() {
        return destroyed.get();
    }
}
