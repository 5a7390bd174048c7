package dev.weft.rpc.protocol.injvm;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.ServiceKey;

import java.util.concurrent.atomic.AtomicBoolean;

/**
 * One service exported by {@link InjvmProtocol}. {@link #unexport()} removes it (referred invokers
 * become unavailable) and destroys the exported invoker; idempotent and thread-safe.
 */
final class InjvmExporter<T> implements Exporter<T> {

    private final ServiceKey key;
    private final Invoker<T> invoker;
    private final InjvmProtocol protocol;
    private final AtomicBoolean unexported = new AtomicBoolean();

    InjvmExporter(ServiceKey key, Invoker<T> invoker, InjvmProtocol protocol) {
        this.key = key;
        this.invoker = invoker;
        this.protocol = protocol;
    }

    @Override
    public Invoker<T> getInvoker() {
        return invoker;
    }

    @Override
    public void unexport() {
        if (unexported.compareAndSet(false, true)) {
            protocol.removed(key, this);
            invoker.destroy();
        }
    }

    @Override
    public String toString() {
        return "InjvmExporter[" + key + (unexported.get() ? ", unexported" : "") + "]";
    }
}
