package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.cluster.ServiceResilience;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.ToDoubleFunction;

/**
 * The consumer's resilience decisions per service, read from the director's
 * {@link dev.weft.rpc.cluster.ResilienceStats}: the counters {@value Meters#CLIENT_HEDGES} (hedges
 * sent), {@value Meters#CLIENT_HEDGES_WON} (calls a hedge answered), {@value Meters#CLIENT_BUDGET_EXHAUSTED}
 * (retries, hedges and extra forks the retry budget refused), {@value Meters#CLIENT_EJECTIONS}
 * (outlier ejections) and the gauge {@value Meters#CLIENT_EJECTED} (providers ejected now).
 *
 * <p>They read the service's monotonic counts when the registry reads them (a scrape), never on a
 * call. A service gets its meters when a reference to it is first joined (or, for references
 * joined earlier, when a registry is bound). The service tag is the interface name, like every
 * other meter's, so the references of one interface in several groups or versions add up.
 *
 * <p>Thread-safe.
 */
final class ResilienceMeters {

    private final Map<String, ServiceCounts> services = new ConcurrentHashMap<>();
    /** Guarded by this: the registries bound, each holding every service's meters. */
    private final List<MeterRegistry> registries = new ArrayList<>();

    /** Registers every service's meters in {@code target}, now and for services added later. */
    synchronized void bindTo(MeterRegistry target) {
        registries.add(target);
        services.values().forEach(service -> service.register(target));
    }

    /**
     * Adds the counts of one service ({@code group/interface:version}) of {@code type} to the meters
     * of {@code type}. A type without methods is left out: it makes no calls, hence no decisions
     * (the registry's rule check joins such a probe to try a rule).
     */
    synchronized void add(Class<?> type, ServiceResilience resilience) {
        if (type.getMethods().length == 0) {
            return;
        }
        ServiceCounts counts = services.get(type.getName());
        if (counts == null) {
            counts = new ServiceCounts(type.getName());
            services.put(type.getName(), counts);
            for (MeterRegistry target : registries) {
                counts.register(target);
            }
        }
        counts.byName.putIfAbsent(resilience.service(), resilience);
    }

    /** The resilience counts of one interface, by service name (group and version), and its meters. */
    private static final class ServiceCounts {
        final String service;
        final Map<String, ServiceResilience> byName = new ConcurrentHashMap<>();

        ServiceCounts(String service) {
            this.service = service;
        }

        /** Registers the meters in {@code target} (the caller holds the lock, once per registry). */
        void register(MeterRegistry target) {
            Tags tags = Tags.of(Meters.SYSTEM, Meters.SYSTEM_WEFT, Meters.SERVICE, service);
            counter(target, tags, Meters.CLIENT_HEDGES, ServiceResilience::hedgesSent,
                    "Hedges sent (cluster=hedging)");
            counter(target, tags, Meters.CLIENT_HEDGES_WON, ServiceResilience::hedgesWon,
                    "Calls whose answer came from a hedge rather than the first attempt");
            counter(target, tags, Meters.CLIENT_BUDGET_EXHAUSTED, ServiceResilience::budgetRefusals,
                    "Retries, hedges and extra forks the retry budget refused");
            counter(target, tags, Meters.CLIENT_EJECTIONS, ServiceResilience::ejections,
                    "Providers ejected as outliers, each ejection counted once");
            Gauge.builder(Meters.CLIENT_EJECTED, this, sum(ServiceResilience::ejectedNow))
                    .tags(tags).description("Providers ejected as outliers now").strongReference(true)
                    .register(target);
        }

        private void counter(MeterRegistry target, Tags tags, String name, ToDoubleFunction<ServiceResilience> count,
                             String description) {
            FunctionCounter.builder(name, this, sum(count)).tags(tags).description(description).register(target);
        }

        private static ToDoubleFunction<ServiceCounts> sum(ToDoubleFunction<ServiceResilience> count) {
            return counts -> counts.byName.values().stream().mapToDouble(count).sum();
        }
    }
}
