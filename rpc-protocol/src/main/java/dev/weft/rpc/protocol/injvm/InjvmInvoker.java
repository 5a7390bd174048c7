package dev.weft.rpc.protocol.injvm;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ServiceKey;

/**
 * A consumer's invoker of an in-process service: each call looks the service up by key and runs
 * it on the caller's thread. Available while the service is exported and this invoker is not
 * destroyed. Thread-safe.
 */
final class InjvmInvoker<T> implements Invoker<T> {

    private final Class<T> type;
    private final URL url;
    private final ServiceKey key;
    private final InjvmProtocol protocol;
    private volatile boolean destroyed;

    InjvmInvoker(Class<T> type, URL url, ServiceKey key, InjvmProtocol protocol) {
        this.type = type;
        this.url = url;
        this.key = key;
        this.protocol = protocol;
    }

    @Override
    public Class<T> getInterface() {
        return type;
    }

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public boolean isAvailable() {
        return !destroyed && protocol.exporterOf(key) != null;
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        if (destroyed) {
            throw new RpcException(RpcException.NOT_PROCESSED, "injvm invoker of " + key
                    + ": destroyed (expected: a live invoker; not run, safe to retry) for " + url);
        }
        InjvmExporter<?> exporter = protocol.exporterOf(key);
        if (exporter == null) {
            throw new RpcException(RpcException.NOT_PROCESSED, "injvm service: " + key + " (expected: an exported service; "
                    + "exported in this JVM: " + protocol.exportedKeys() + "; not run, safe to retry)");
        }
        Invoker<?> provider = exporter.getInvoker();
        if (provider.getInterface() != type) {
            throw new RpcException(RpcException.FORBIDDEN_EXCEPTION, "injvm service " + key + ": interface "
                    + provider.getInterface().getName() + " from " + provider.getInterface().getClassLoader()
                    + " (expected: the consumer's " + type.getName() + " from " + type.getClassLoader() + ")");
        }
        return provider.invoke(invocation);
    }

    @Override
    public void destroy() {
        destroyed = true;
        protocol.destroyed(this);
    }

    @Override
    public String toString() {
        return "InjvmInvoker[" + url + (destroyed ? ", destroyed" : "") + "]";
    }
}
