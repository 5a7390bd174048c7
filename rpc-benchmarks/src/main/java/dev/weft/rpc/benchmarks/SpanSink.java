package dev.weft.rpc.benchmarks;

import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.data.SpanData;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.util.Collection;
import java.util.Objects;
import java.util.function.Consumer;

/** A span exporter that hands each batch to a consumer and has nothing to flush or shut down. */
final class SpanSink implements SpanExporter {

    private final Consumer<Collection<SpanData>> batches;

    private SpanSink(Consumer<Collection<SpanData>> batches) {
        this.batches = Objects.requireNonNull(batches, "batches");
    }

    /** An exporter handing every batch to {@code batches}, on the exporting thread. */
    static SpanExporter of(Consumer<Collection<SpanData>> batches) {
        return new SpanSink(batches);
    }

    @Override
    public CompletableResultCode export(Collection<SpanData> spans) {
        batches.accept(spans);
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode flush() {
        return CompletableResultCode.ofSuccess();
    }

    @Override
    public CompletableResultCode shutdown() {
        return CompletableResultCode.ofSuccess();
    }
}
