package dev.weft.rpc.benchmarks;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.propagation.TextMapGetter;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;
import io.opentelemetry.sdk.OpenTelemetrySdk;
import io.opentelemetry.sdk.trace.export.SimpleSpanProcessor;
import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What the observability libraries themselves do for one Weft call over the network, with no
 * Weft around it: the floor under the cost of binding the modules. Metrics: three timers recorded
 * (call, attempt, server; {@code rpc.*.duration} with the tags Weft gives them), each timed with two
 * clock reads. Tracing, when the binding traces: the call's span, its context injected into the
 * call's attachments, the attempt's span injected into a copy of them, the provider's extract and
 * server span, all three ended: what the three tracing filters ask of the SDK per call. Each
 * {@link #call()} does that once; {@link ObservedNetworkRun} runs it on as many threads as it has
 * callers and takes the process's CPU time per call. Thread-safe.
 */
final class InstrumentationFloor implements AutoCloseable {

    private static final TextMapSetter<Map<String, String>> SETTER = Map::put;
    private static final TextMapGetter<Map<String, String>> GETTER = new TextMapGetter<>() {
        @Override
        public String get(Map<String, String> carrier, String key) {
            return carrier == null ? null : carrier.get(key);
        }
    };

    private final OpenTelemetrySdk openTelemetry;
    private final Timer callTimer;
    private final Timer attemptTimer;
    private final Timer serverTimer;
    private final Tracer tracer;
    private final TextMapPropagator propagator;
    private final Attributes callAttributes;
    private final Attributes attemptAttributes;
    private final String spanName = Greeter.class.getName() + "/greet";

    private final MeterRegistry registry = new SimpleMeterRegistry();

    /**
     * The floor of what {@code binding} binds: the metrics in a registry of their own and, when it
     * traces, the tracing through an SDK of its own with the sampler {@link ObservedWefts} gives
     * theirs. Its spans go to {@code exporter} as they end, with no queue: for a floor, an exporter
     * that does nothing ({@code SpanExporter.composite()}), which costs less than the batch processor's
     * queue the observed pairs use and cannot fall behind 64 threads and drop spans.
     */
    InstrumentationFloor(ObservedWefts.Binding binding, SpanExporter exporter) {
        openTelemetry = ObservedWefts.openTelemetry(binding, () -> SimpleSpanProcessor.create(exporter));
        Tags tags = Tags.of("rpc.system", "weft", "rpc.service", Greeter.class.getName(), "rpc.method", "greet",
                "error.type", "none");
        callTimer = Timer.builder("rpc.client.call.duration").tags(tags).tag("outcome", "ok").register(registry);
        attemptTimer = Timer.builder("rpc.client.attempt.duration").tags(tags).register(registry);
        serverTimer = Timer.builder("rpc.server.call.duration").tags(tags).register(registry);
        tracer = openTelemetry == null ? null : openTelemetry.getTracer("weft-floor");
        propagator = openTelemetry == null ? null : openTelemetry.getPropagators().getTextMapPropagator();
        callAttributes = Attributes.builder().put("rpc.system", "weft").put("rpc.service", Greeter.class.getName())
                .put("rpc.method", "greet").build();
        attemptAttributes = callAttributes.toBuilder().put("server.address", "127.0.0.1").put("server.port", 20880L)
                .put("weft.attempt", 1L).build();
    }

    /** The registry the three timers are in. */
    MeterRegistry registry() {
        return registry;
    }

    /** The libraries' work for one call. */
    void call() {
        long callStart = System.nanoTime();
        long attemptStart = System.nanoTime();
        long serverStart = System.nanoTime();
        if (tracer != null) {
            traced();
        }
        serverTimer.record(System.nanoTime() - serverStart, TimeUnit.NANOSECONDS);
        attemptTimer.record(System.nanoTime() - attemptStart, TimeUnit.NANOSECONDS);
        callTimer.record(System.nanoTime() - callStart, TimeUnit.NANOSECONDS);
    }

    private void traced() {
        Context current = Context.current();
        Span call = tracer.spanBuilder(spanName).setSpanKind(SpanKind.CLIENT).setParent(current)
                .setAllAttributes(callAttributes).startSpan();
        Context callContext = current.with(call);
        Map<String, String> attachments = new HashMap<>();
        propagator.inject(callContext, attachments, SETTER);
        Span attempt = tracer.spanBuilder(spanName).setSpanKind(SpanKind.CLIENT).setParent(callContext)
                .setAllAttributes(attemptAttributes).startSpan();
        Map<String, String> sent = new HashMap<>(attachments);
        propagator.inject(callContext.with(attempt), sent, SETTER);
        Context remote = propagator.extract(Context.root(), sent, GETTER);
        Span server = tracer.spanBuilder(spanName).setSpanKind(SpanKind.SERVER).setParent(remote)
                .setAllAttributes(callAttributes).startSpan();
        server.end();
        attempt.end();
        call.end();
    }

    @Override
    public void close() {
        if (openTelemetry != null) {
            openTelemetry.close();
        }
    }
}
