package dev.weft.rpc.mock;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicInteger;

/** A test stand-in for {@code ProxyFactory::getInvoker}: calls the implementation by reflection. */
final class ReflectiveInvokers implements ImplementationInvokers {

    final AtomicInteger created = new AtomicInteger();

    @Override
    public <T> Invoker<T> invokerFor(T implementation, Class<T> type, URL url) {
        created.incrementAndGet();
        return new Invoker<T>() {
            @Override
            public Class<T> getInterface() {
                return type;
            }

            @Override
            public Result invoke(Invocation invocation) {
                try {
                    Method method = type.getMethod(invocation.getMethodName(), invocation.getParameterTypes());
                    return RpcResult.of(method.invoke(implementation, invocation.getArguments()));
                } catch (InvocationTargetException e) {
                    return RpcResult.ofException(e.getCause());
                } catch (ReflectiveOperationException e) {
                    throw new RpcException(e.toString(), e);
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
        };
    }
}
