package dev.weft.rpc.benchmarks;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.metrics.micrometer.WeftMetrics;
import dev.weft.rpc.tracing.opentelemetry.WeftTelemetry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.propagation.W3CTraceContextPropagator;
import io.opentelemetry.context.propagation.ContextPropagators;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.export.BatchSpanProcessor;
import io.opentelemetry.sdk.trace.samplers.Sampler;

import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * A provider {@link Weft} and a consumer {@link Weft} in one JVM, with the observability modules
 * unbound, metrics bound (a {@link SimpleMeterRegistry}), or both bound: metrics, plus an
 * OpenTelemetry SDK that samples every span ({@code both}), a tenth of the traces ({@code sampled})
 * or none ({@code unsampled}: the trace context still travels with every call), parent-based, and
 * hands the spans to a {@link BatchSpanProcessor} (as a production setup does) in front of an
 * exporter that only counts, so the figure is Weft's instrumentation and the SDK, not an
 * exporter's I/O.
 */
final class ObservedWefts implements AutoCloseable {

    /** What is bound on both Wefts. */
    enum Binding {
        OFF, METRICS, BOTH, SAMPLED, UNSAMPLED;

        /** Whether it installs tracing. */
        boolean traces() {
            return this == BOTH || this == SAMPLED || this == UNSAMPLED;
        }

        /** The sampler of the traces: parent-based, over every trace, a tenth of them or none. */
        Sampler sampler() {
            return Sampler.parentBased(switch (this) {
                case BOTH -> Sampler.alwaysOn();
                case SAMPLED -> Sampler.traceIdRatioBased(SAMPLED_RATIO);
                default -> Sampler.alwaysOff();
            });
        }

        static Binding of(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }
    }

    /** The share of traces {@code sampled} records. */
    static final double SAMPLED_RATIO = 0.1;

    final Weft provider;
    final Weft consumer;
    final Greeter greeter;
    private final AtomicLong spans = new AtomicLong();
    private final OpenTelemetrySdk openTelemetry;

    /**
     * Exports {@link GreeterImpl} on {@code protocol} and refers it: over {@code weft} from another
     * {@code Weft}, over {@code injvm} from the same one (the protocol serves its own director).
     */
    ObservedWefts(Binding binding, String protocol) {
        boolean inJvm = "injvm".equals(protocol);
        provider = Weft.builder().build();
        consumer = inJvm ? provider : Weft.builder().build();
        if (binding != Binding.OFF) {
            MeterRegistry meters = new SimpleMeterRegistry();
            new WeftMetrics(provider.director()).bindTo(meters);
            new WeftMetrics(consumer.director()).bindTo(meters);
        }
        // a queue deep enough that no span is dropped while the exporting thread waits for a core
        openTelemetry = openTelemetry(binding, () -> BatchSpanProcessor
                .builder(SpanSink.of(batch -> spans.addAndGet(batch.size()))).setMaxQueueSize(1 << 16).build());
        if (openTelemetry != null) {
            install(openTelemetry);
        }
        String address = provider.export(Greeter.class, new GreeterImpl(), inJvm ? "injvm://127.0.0.1" : "weft://127.0.0.1:0")
                .getInvoker().getUrl().getAddress();
        greeter = consumer.refer(Greeter.class, "url=" + protocol + "://" + address + "&timeout=10000");
    }

    /**
     * The SDK {@code binding} traces with, handing finished spans to the processor {@code processor}
     * makes (only when it traces: a batch processor starts a thread); null when it does not trace.
     */
    static OpenTelemetrySdk openTelemetry(Binding binding, Supplier<SpanProcessor> processor) {
        if (!binding.traces()) {
            return null;
        }
        return OpenTelemetrySdk.builder()
                .setTracerProvider(SdkTracerProvider.builder().setSampler(binding.sampler())
                        .addSpanProcessor(processor.get()).build())
                .setPropagators(ContextPropagators.create(W3CTraceContextPropagator.getInstance()))
                .build();
    }

    private void install(OpenTelemetry telemetry) {
        WeftTelemetry.create(telemetry).install(provider.director());
        WeftTelemetry.create(telemetry).install(consumer.director());
    }

    /** The spans exported so far, once those still queued are exported (waiting at most 10 s). */
    long spansExported() {
        if (openTelemetry != null) {
            openTelemetry.getSdkTracerProvider().forceFlush().join(10, TimeUnit.SECONDS);
        }
        return spans.get();
    }

    @Override
    public void close() {
        consumer.close(); // idempotent: the same Weft as the provider's over injvm
        provider.close();
        if (openTelemetry != null) {
            openTelemetry.close();
        }
    }
}
