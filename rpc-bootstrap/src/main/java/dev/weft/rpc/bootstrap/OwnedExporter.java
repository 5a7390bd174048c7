package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.protocol.Exporter;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * The exporter {@code Weft.export} returns: {@link #unexport()} also tells the {@code Weft} to stop
 * owning it, so a long-lived instance keeps neither the exporter nor its implementation once the
 * user released them. Thread-safe; {@link #unexport()} is idempotent, whether the user or
 * {@code Weft.close()} calls it first.
 */
final class OwnedExporter<T> implements Exporter<T> {

    private final Exporter<T> exporter;
    private final Consumer<AutoCloseable> forget;
    private final AtomicBoolean unexported = new AtomicBoolean();
    /** What the owner keeps and closes; the same object is handed to {@code forget}. */
    private final AutoCloseable handle = this::unexport;

    /** {@code forget} stops the owner from owning {@link #handle()}. */
    OwnedExporter(Exporter<T> exporter, Consumer<AutoCloseable> forget) {
        this.exporter = Objects.requireNonNull(exporter, "exporter");
        this.forget = Objects.requireNonNull(forget, "forget");
    }

    /** What the owner keeps until it closes: closing it unexports. */
    AutoCloseable handle() {
        return handle;
    }

    @Override
    public Invoker<T> getInvoker() {
        return exporter.getInvoker();
    }

    @Override
    public void unexport() {
        if (unexported.compareAndSet(false, true)) {
            forget.accept(handle);
            exporter.unexport();
        }
    }

    @Override
    public String toString() {
        return exporter.toString();
    }
}
