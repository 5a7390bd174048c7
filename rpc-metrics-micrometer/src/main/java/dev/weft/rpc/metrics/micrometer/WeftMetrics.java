package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.spi.ExtensionDirector;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;

import java.util.Objects;

/**
 * Binds the meters of the Weft calls, attempts, servers and registry directories of one
 * {@link ExtensionDirector} (a {@code Weft}'s {@code director()}) to a Micrometer registry:
 *
 * <pre>{@code
 * new WeftMetrics(weft.director()).bindTo(meterRegistry);
 * }</pre>
 *
 * <p>Nothing is measured until this is bound: the filters of this module are in every chain of the
 * director, but while unbound each call costs them one volatile read. Binding takes effect for
 * calls already wired (services exported and referred before the bind) as well as later ones.
 * Binding to several registries sends every meter to each of them.
 *
 * <p>Meters (names and tags: {@code docs/observability.md}): {@value Meters#CLIENT_CALL_DURATION},
 * {@value Meters#CLIENT_ATTEMPT_DURATION}, {@value Meters#CLIENT_RETRIES},
 * {@value Meters#CLIENT_HEDGES}, {@value Meters#CLIENT_HEDGES_WON}, {@value Meters#CLIENT_BUDGET_EXHAUSTED},
 * {@value Meters#CLIENT_EJECTIONS}, {@value Meters#CLIENT_EJECTED},
 * {@value Meters#SERVER_CALL_DURATION}, {@value Meters#SERVER_BUSY},
 * {@value Meters#REGISTRY_PROVIDERS}, {@value Meters#REGISTRY_RULES},
 * {@value Meters#REGISTRY_RULES_REJECTED}. Calls are measured until their result ends, so
 * asynchronous calls count their whole time. Tag values are bounded: the method tag is a method of
 * the service interface or {@code other}, the error tag one of
 * {@link dev.weft.rpc.protocol.ErrorType}'s names. No percentile is computed in the process;
 * whether timers publish percentile histograms (which combine across instances) is the registry's
 * choice: turn them on with a {@code MeterFilter} for the {@code rpc.} meters.
 *
 * <p>Thread-safe.
 */
public final class WeftMetrics implements MeterBinder {

    private final ExtensionDirector director;

    /** The binder of {@code director}'s meters. */
    public WeftMetrics(ExtensionDirector director) {
        this.director = Objects.requireNonNull(director, "director");
    }

    /**
     * Starts measuring the director's calls into {@code registry}; idempotent per registry.
     *
     * @throws IllegalStateException when the director is closed
     */
    @Override
    public void bindTo(MeterRegistry registry) {
        Objects.requireNonNull(registry, "registry");
        MeterHub.of(director).bind(registry);
    }
}
