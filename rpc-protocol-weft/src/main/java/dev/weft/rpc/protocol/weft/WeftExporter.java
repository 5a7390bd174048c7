package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * One exported service. {@link #getInvoker()} answers with the exported URL: the port actually
 * bound and, for a {@code 0.0.0.0} export, the {@code register-host}; that is the URL to register.
 * {@link #unexport()} is graceful and idempotent. Thread-safe.
 */
final class WeftExporter<T> implements Exporter<T> {

    private final Invoker<T> invoker;
    private final WeftServer server;
    private final ExportedService service;
    private final Consumer<WeftExporter<?>> onUnexport;
    private final AtomicBoolean unexported = new AtomicBoolean();
    private final Invoker<T> view;

    WeftExporter(Invoker<T> invoker, URL exportedUrl, WeftServer server, ExportedService service,
                 Consumer<WeftExporter<?>> onUnexport) {
        this.invoker = invoker;
        this.server = server;
        this.service = service;
        this.onUnexport = onUnexport;
        this.view = new Invoker<>() {
            @Override
            public Class<T> getInterface() {
                return invoker.getInterface();
            }

            @Override
            public Result invoke(Invocation invocation) throws RpcException {
                return invoker.invoke(invocation);
            }

            @Override
            public URL getUrl() {
                return exportedUrl;
            }

            @Override
            public boolean isAvailable() {
                return !unexported.get() && invoker.isAvailable();
            }

            @Override
            public void destroy() {
                invoker.destroy();
            }
        };
    }

    @Override
    public Invoker<T> getInvoker() {
        return view;
    }

    WeftServer server() {
        return server;
    }

    ExportedService service() {
        return service;
    }

    /** Marks this exporter done without its own shutdown (the protocol closes the whole server). */
    void markUnexported() {
        unexported.set(true);
    }

    @Override
    public void unexport() {
        if (unexported.compareAndSet(false, true)) {
            onUnexport.accept(this);
        }
    }

    @Override
    public String toString() {
        return "WeftExporter[" + view.getUrl() + "]";
    }
}
