package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.registry.RegistryDirectory;
import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.ToDoubleFunction;

/**
 * The gauges of the registry directories of one director, per service:
 * {@value Meters#REGISTRY_PROVIDERS} (providers listed now), {@value Meters#REGISTRY_RULES}
 * (override rules applied now) and the counter {@value Meters#REGISTRY_RULES_REJECTED} (rules left
 * out as unusable). They read the directories when the registry reads them (a scrape), never on a
 * call. When one director refers a service more than once, the gauges show the largest of its
 * directories and the counter their sum. Destroyed directories are dropped.
 *
 * <p>Thread-safe.
 */
final class RegistryGauges {

    private final Map<String, ServiceDirectories> services = new ConcurrentHashMap<>();
    /** Guarded by this: the registries bound, each holding every service's meters. */
    private final List<MeterRegistry> registries = new ArrayList<>();

    /** Registers every service's gauges in {@code target}, now and for services added later. */
    synchronized void bindTo(MeterRegistry target) {
        registries.add(target);
        services.values().forEach(service -> service.register(target));
    }

    /** Adds {@code directory} to its service's gauges. */
    synchronized void add(RegistryDirectory<?> directory) {
        String service = directory.getInterface().getName();
        services.values().forEach(ServiceDirectories::dropDestroyed);
        ServiceDirectories directories = services.get(service);
        if (directories == null) {
            directories = new ServiceDirectories(service);
            services.put(service, directories);
            for (MeterRegistry target : registries) {
                directories.register(target);
            }
        }
        directories.directories.add(directory);
    }

    /** The directories of one service and its meters. */
    private static final class ServiceDirectories {
        final String service;
        final List<RegistryDirectory<?>> directories = new CopyOnWriteArrayList<>();
        private final AtomicLong retiredRejections = new AtomicLong();

        ServiceDirectories(String service) {
            this.service = service;
        }

        /** Drops destroyed directories, keeping their rejections in the (monotonic) counter. */
        void dropDestroyed() {
            for (RegistryDirectory<?> directory : directories) {
                if (directory.isDestroyed() && directories.remove(directory)) {
                    retiredRejections.addAndGet(directory.getRejectedRuleCount());
                }
            }
        }

        double rejections() {
            return retiredRejections.get() + directories.stream().mapToDouble(RegistryDirectory::getRejectedRuleCount).sum();
        }

        /** Registers the meters in {@code target} (the caller holds the gauges' lock, once per registry). */
        void register(MeterRegistry target) {
            Tags tags = Tags.of(Meters.SYSTEM, Meters.SYSTEM_WEFT, Meters.SERVICE, service);
            Gauge.builder(Meters.REGISTRY_PROVIDERS, this, largest(d -> d.getInvokers().size()))
                    .tags(tags).description("Providers the consumer's registry directory lists now").strongReference(true)
                    .register(target);
            Gauge.builder(Meters.REGISTRY_RULES, this, largest(RegistryDirectory::getRuleCount))
                    .tags(tags).description("Override rules the consumer applies now").strongReference(true)
                    .register(target);
            FunctionCounter.builder(Meters.REGISTRY_RULES_REJECTED, this, ServiceDirectories::rejections)
                    .tags(tags).description("Override rules left out as unusable (unreadable, bad value, refused)")
                    .register(target);
        }

        private static ToDoubleFunction<ServiceDirectories> largest(ToDoubleFunction<RegistryDirectory<?>> value) {
            return s -> s.directories.stream().filter(d -> !d.isDestroyed()).mapToDouble(value).max().orElse(0);
        }
    }
}
