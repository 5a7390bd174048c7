package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * An exported service that is also registered: {@link #unexport()} unregisters it first, so
 * consumers stop choosing it, then unexports it gracefully. Thread-safe; {@link #unexport()} is
 * idempotent.
 */
final class RegisteredExporter<T> implements Exporter<T> {

    private static final Logger LOG = LoggerFactory.getLogger(RegisteredExporter.class);

    private final Exporter<T> exporter;
    private final Consumer<URL> unregister;
    private final URL registered;
    private final AtomicBoolean unregistered = new AtomicBoolean();
    private final AtomicBoolean unexported = new AtomicBoolean();

    /** {@code unregister} deletes {@code registered} from the registry it was registered in. */
    RegisteredExporter(Exporter<T> exporter, Consumer<URL> unregister, URL registered) {
        this.exporter = Objects.requireNonNull(exporter, "exporter");
        this.unregister = Objects.requireNonNull(unregister, "unregister");
        this.registered = Objects.requireNonNull(registered, "registered");
    }

    @Override
    public Invoker<T> getInvoker() {
        return exporter.getInvoker();
    }

    /**
     * Unregisters, once: consumers stop choosing this provider while it still serves. The first
     * step of {@link #unexport()}; {@code Weft.close()} takes it for every service before draining any.
     */
    void unregister() {
        if (!unregistered.compareAndSet(false, true)) {
            return;
        }
        try {
            unregister.accept(registered);
        } catch (RuntimeException e) {
            // the server must still close; the registry deletes the node when its session ends
            LOG.warn("unexport: unregistering {} failed: {}", registered, e.toString());
        }
    }

    @Override
    public void unexport() {
        if (!unexported.compareAndSet(false, true)) {
            return;
        }
        try {
            unregister();
        } finally {
            exporter.unexport();
        }
    }

    @Override
    public String toString() {
        return "registered " + registered;
    }
}
