package dev.weft.rpc.protocol.injvm;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.protocol.ServiceKey;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * Protocol {@value #NAME}: calls between a consumer and a provider in the same JVM (and the same
 * {@code ExtensionDirector}), with no network and no serialization: the consumer's invocation,
 * arguments and result objects are handed over as they are, on the caller's thread.
 *
 * <p>URLs look like {@code injvm://127.0.0.1/com.example.Greeter?group=a&version=1.0}; a service
 * is found by its {@link ServiceKey} (interface, {@code group}, {@code version}), so the host and
 * port do not matter. {@link #export} fails when the key is already exported here. {@link #refer}
 * always succeeds: the invoker looks its service up at each call, so it is unavailable
 * ({@code isAvailable() == false}) while the service is not exported (yet, or any more) and
 * available again once it is; a call meanwhile fails with {@link RpcException#NOT_PROCESSED}
 * naming the service and what is exported. {@link #destroy()} unexports every service and
 * destroys every invoker this protocol handed out.
 *
 * <p>Thread-safe. Closing the director closes it (destroys it).
 */
public final class InjvmProtocol implements Protocol, AutoCloseable {

    /** The extension name and URL scheme. */
    public static final String NAME = "injvm";

    private final ConcurrentMap<ServiceKey, InjvmExporter<?>> exporters = new ConcurrentHashMap<>();
    private final Set<InjvmInvoker<?>> invokers = ConcurrentHashMap.newKeySet();
    private volatile boolean destroyed;

    /** No port: in-process calls are found by service key. */
    @Override
    public int getDefaultPort() {
        return 0;
    }

    @Override
    public <T> Exporter<T> export(Invoker<T> invoker) throws RpcException {
        Objects.requireNonNull(invoker, "invoker");
        requireOpen();
        URL url = invoker.getUrl();
        ServiceKey key = keyOf(url, invoker.getInterface(), "export");
        InjvmExporter<T> exporter = new InjvmExporter<>(key, invoker, this);
        InjvmExporter<?> existing = exporters.putIfAbsent(key, exporter);
        if (existing != null) {
            throw new RpcException("injvm export: " + key + " (expected: a service not exported yet in this protocol; "
                    + "unexport the running one first or use another group/version) for " + url);
        }
        if (destroyed) {
            exporters.remove(key, exporter);
            requireOpen();
        }
        return exporter;
    }

    @Override
    public <T> Invoker<T> refer(Class<T> type, URL url) throws RpcException {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(url, "url");
        requireOpen();
        InjvmInvoker<T> invoker = new InjvmInvoker<>(type, url, keyOf(url, type, "refer"), this);
        invokers.add(invoker);
        if (destroyed) {
            invoker.destroy();
            requireOpen();
        }
        return invoker;
    }

    /** Unexports every service and destroys every referred invoker; idempotent. */
    @Override
    public void destroy() {
        destroyed = true;
        for (InjvmExporter<?> exporter : new ArrayList<>(exporters.values())) {
            exporter.unexport();
        }
        for (InjvmInvoker<?> invoker : new ArrayList<>(invokers)) {
            invoker.destroy();
        }
    }

    /** Same as {@link #destroy()}. */
    @Override
    public void close() {
        destroy();
    }

    @Override
    public String toString() {
        return "InjvmProtocol[exported=" + exporters.keySet() + ", invokers=" + invokers.size() + (destroyed ? ", destroyed" : "") + "]";
    }

    // ------------------------------------------------------------------ used by the exporter and invokers

    InjvmExporter<?> exporterOf(ServiceKey key) {
        return exporters.get(key);
    }

    /** The exported keys, sorted, for error messages. */
    List<String> exportedKeys() {
        List<String> keys = new ArrayList<>();
        for (ServiceKey key : exporters.keySet()) {
            keys.add(key.toString());
        }
        keys.sort(null);
        return keys;
    }

    void removed(ServiceKey key, InjvmExporter<?> exporter) {
        exporters.remove(key, exporter);
    }

    void destroyed(InjvmInvoker<?> invoker) {
        invokers.remove(invoker);
    }

    private void requireOpen() {
        if (destroyed) {
            throw new RpcException("injvm protocol: destroyed (expected: an open protocol; create a new ExtensionDirector)");
        }
    }

    private static ServiceKey keyOf(URL url, Class<?> type, String what) {
        if (!NAME.equals(url.getProtocol())) {
            throw new RpcException("injvm " + what + ": " + url + " (expected: an injvm:// URL, e.g. injvm://127.0.0.1/"
                    + type.getName() + ")");
        }
        ServiceKey key;
        try {
            key = ServiceKey.of(url);
        } catch (IllegalArgumentException e) {
            throw new RpcException("injvm " + what + ": " + e.getMessage(), e);
        }
        if (!key.getInterfaceName().equals(type.getName())) {
            throw new RpcException("injvm " + what + ": interface " + key.getInterfaceName() + " in " + url
                    + " (expected: " + type.getName() + ", the invoker's interface)");
        }
        return key;
    }
}
