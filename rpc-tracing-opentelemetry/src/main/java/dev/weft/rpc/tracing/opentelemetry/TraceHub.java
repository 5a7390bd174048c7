package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.spi.ExtensionDirector;

/**
 * The telemetry installed on one {@link ExtensionDirector} (none until then), one per director
 * ({@link ExtensionDirector#getService}), so nothing is static. Filters resolve their hub once per
 * chain and read {@link #telemetry()} (one volatile read) per call. Thread-safe.
 */
final class TraceHub {

    private volatile WeftTelemetry telemetry;

    /** The hub of {@code director} (the default director when null), created on first use. */
    static TraceHub of(ExtensionDirector director) {
        ExtensionDirector owner = director == null ? ExtensionDirector.getDefault() : director;
        return owner.getService(TraceHub.class, d -> new TraceHub());
    }

    void install(WeftTelemetry installed) {
        telemetry = installed;
    }

    /** The telemetry, or null while none is installed. */
    WeftTelemetry telemetry() {
        return telemetry;
    }
}
