package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;

import java.util.Objects;
import java.util.function.Consumer;

/**
 * The exporter {@code Weft.export} returns: {@link #unexport()} also tells the {@code Weft} to stop
 * owning it, so a long-lived instance keeps neither the exporter nor its implementation once the
 * user released them. Thread-safe; {@link #unexport()} is idempotent, whether the user or
 * {@code Weft.close()} calls it first, and a second caller waits for the first to finish.
 */
final class OwnedExporter<T> implements Exporter<T> {

    private final Exporter<T> exporter;
    private final Consumer<AutoCloseable> forget;
    private boolean unexported;
    /** What the owner keeps and closes; the same object is handed to {@code forget}. */
    private final Handle handle = new Handle();

    /** {@code forget} stops the owner from owning {@link #handle()}. */
    OwnedExporter(Exporter<T> exporter, Consumer<AutoCloseable> forget) {
        this.exporter = Objects.requireNonNull(exporter, "exporter");
        this.forget = Objects.requireNonNull(forget, "forget");
    }

    /** What the owner keeps until it closes: closing it unexports. */
    Handle handle() {
        return handle;
    }

    /** The owner's hold on this exporter: {@link #unregister()} first, for every service, then {@link #close()}. */
    final class Handle implements AutoCloseable {

        /** Unregisters the service, if it is registered, and leaves it serving (idempotent). */
        void unregister() {
            if (exporter instanceof RegisteredExporter<?> registered) {
                registered.unregister();
            }
        }

        /** The exported URL (its parameters bound the drain). */
        URL url() {
            return exporter.getInvoker().getUrl();
        }

        @Override
        public void close() {
            unexport();
        }

        @Override
        public String toString() {
            return "exporter " + exporter;
        }
    }

    @Override
    public Invoker<T> getInvoker() {
        return exporter.getInvoker();
    }

    /**
     * Unexports once; a caller arriving while another unexports returns when that one has finished,
     * so {@code Weft.close()} never goes on to close the director under a user's unexport still draining.
     */
    @Override
    public synchronized void unexport() {
        if (unexported) {
            return;
        }
        unexported = true;
        try {
            exporter.unexport();
        } finally {
            // only now: a close() starting meanwhile still finds the handle, and waits for this unexport
            forget.accept(handle);
        }
    }

    @Override
    public String toString() {
        return exporter.toString();
    }
}
