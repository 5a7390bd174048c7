package dev.weft.rpc.metrics.micrometer;

import com.google.common.base.Ticker;
import dev.weft.rpc.protocol.filter.ExecuteLimits;
import dev.weft.rpc.spi.ExtensionDirector;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.composite.CompositeMeterRegistry;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The meters of one {@link ExtensionDirector}: the registry {@link WeftMetrics} bound (none until
 * then), the registry-directory gauges and the resilience meters. One per director ({@link ExtensionDirector#getService}),
 * so two directors in one JVM never share meters and nothing is static.
 *
 * <p>Filters resolve their hub once, when their chain is built, and read {@link #registry()} (one
 * volatile read) per call: unbound, a call pays that read and nothing else. Thread-safe.
 */
final class MeterHub {

    private final Ticker ticker;
    private final RegistryGauges registryGauges = new RegistryGauges();
    private final ResilienceMeters resilienceMeters = new ResilienceMeters();
    private final Object lock = new Object();
    /** Guarded by lock: every registry bound, in order. */
    private final List<MeterRegistry> bound = new ArrayList<>();
    /** Null until bound; the one registry bound, or a composite of them all so meters made once reach each. */
    private volatile MeterRegistry registry;

    private MeterHub(Ticker ticker) {
        this.ticker = ticker;
    }

    /**
     * The hub of {@code director}, created on first use; of the default director when null (an
     * extension constructed directly rather than by a loader).
     */
    static MeterHub of(ExtensionDirector director) {
        ExtensionDirector owner = director == null ? ExtensionDirector.getDefault() : director;
        return owner.getService(MeterHub.class, d -> {
            MeterHub hub = new MeterHub(d.getTicker());
            ExecuteLimits.of(d).onRefusedOnReceipt(hub::refusedOnReceipt);
            return hub;
        });
    }

    /**
     * Sends this director's meters to {@code target} too (idempotent per registry). Calls record
     * straight into a single registry; from the second one on, into a composite of all of them
     * (the filters notice the change and make their meters again there).
     */
    void bind(MeterRegistry target) {
        Objects.requireNonNull(target, "registry");
        synchronized (lock) {
            if (bound.contains(target)) {
                return;
            }
            bound.add(target);
            registryGauges.bindTo(target);
            resilienceMeters.bindTo(target);
            if (bound.size() == 1) {
                registry = target;
            } else {
                CompositeMeterRegistry composite = new CompositeMeterRegistry(bound.get(0).config().clock());
                bound.forEach(composite::add);
                registry = composite;
            }
        }
    }

    /**
     * Counts a call the server refused busy as it read it ({@code executes=auto}), which no provider
     * filter saw, in the same {@value Meters#SERVER_BUSY} counter as the filter's refusals.
     */
    private void refusedOnReceipt(String service, String method) {
        MeterRegistry target = registry;
        if (target != null) {
            Counter.builder(Meters.SERVER_BUSY).tags(ChainMeters.serviceTags(service))
                    .tag(Meters.METHOD, method).register(target).increment();
        }
    }

    /** Where meters go, or null while nothing is bound. */
    MeterRegistry registry() {
        return registry;
    }

    /** The clock of this director: durations are measured with it. */
    Ticker ticker() {
        return ticker;
    }

    RegistryGauges registryGauges() {
        return registryGauges;
    }

    ResilienceMeters resilienceMeters() {
        return resilienceMeters;
    }
}
