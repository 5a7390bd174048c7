package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.spi.ExtensionDirector;
import io.opentelemetry.api.OpenTelemetry;
import io.opentelemetry.api.trace.Tracer;
import io.opentelemetry.context.propagation.TextMapPropagator;

import java.util.Objects;

/**
 * Traces the Weft calls of one {@link ExtensionDirector} (a {@code Weft}'s {@code director()})
 * with OpenTelemetry:
 *
 * <pre>{@code
 * WeftTelemetry.create(openTelemetry).install(weft.director());
 * }</pre>
 *
 * <p>A consumer opens a {@code CLIENT} span per call, the child of the span current when the call
 * is made ({@code weft.mocked}: whether the mock answered), and a {@code CLIENT} span per attempt
 * at a provider under it ({@code server.address}, {@code server.port}, {@code weft.attempt}),
 * whose context it sends with the call in its attachments (W3C {@code traceparent}/{@code
 * tracestate} through the {@link OpenTelemetry}'s propagators). A provider opens a {@code SERVER}
 * span per call it serves, the child of that context, current while the provider's method runs so
 * the calls it makes continue the trace. Span names are {@code service/method}; every span has
 * {@code rpc.system=weft}, {@code rpc.service}, {@code rpc.method}; a failed call's span has status
 * ERROR and {@code error.type} (an {@link dev.weft.rpc.protocol.ErrorType} name). Spans end when the
 * call's result ends, sync or async, on whatever thread ends it.
 *
 * <p>Nothing is traced until installed: this module's filters are in every chain of the director,
 * but until then a call costs them one volatile read. Installing again replaces the telemetry.
 * Immutable and thread-safe.
 */
public final class WeftTelemetry {

    /** The instrumentation scope name of Weft's spans. */
    public static final String INSTRUMENTATION_NAME = "dev.weft.rpc";

    private final Tracer tracer;
    private final TextMapPropagator propagator;

    private WeftTelemetry(OpenTelemetry openTelemetry) {
        this.tracer = openTelemetry.getTracer(INSTRUMENTATION_NAME);
        this.propagator = openTelemetry.getPropagators().getTextMapPropagator();
    }

    /** Telemetry that traces with {@code openTelemetry}'s tracer and propagators. */
    public static WeftTelemetry create(OpenTelemetry openTelemetry) {
        return new WeftTelemetry(Objects.requireNonNull(openTelemetry, "openTelemetry"));
    }

    /**
     * Starts tracing {@code director}'s calls, those already wired included.
     *
     * @throws IllegalStateException when the director is closed
     */
    public void install(ExtensionDirector director) {
        Objects.requireNonNull(director, "director");
        TraceHub.of(director).install(this);
    }

    Tracer tracer() {
        return tracer;
    }

    TextMapPropagator propagator() {
        return propagator;
    }
}
