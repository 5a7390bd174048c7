package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.protocol.ErrorType;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.Timer;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The meters of one chain (one exported or referred invoker): a timer per method of the service
 * interface and {@link ErrorType}, and a counter per method, each registered on first use and then
 * found with one map lookup. Methods the interface does not declare share the tag
 * {@value Meters#OTHER_METHOD}, so a caller cannot add tag values.
 *
 * <p>Meters belong to the registry they were made in; when {@link WeftMetrics} binds another
 * registry the next call starts a fresh set. Thread-safe: two threads racing to register one meter
 * get the same meter from the registry.
 */
final class ChainMeters {

    private static final int KINDS = ErrorType.values().length;
    /** Timers per method: one per error type, twice when the outcome tag tells mocked answers apart. */
    private static final int SLOTS = 2 * KINDS;

    private final String timerName;
    private final boolean withOutcome;
    private final String counterName;
    private final Tags baseTags;
    private final Set<String> methodNames;
    private volatile Snapshot snapshot;

    /**
     * Meters named {@code timerName} and {@code counterName} (null: none) tagged with {@code baseTags},
     * {@value Meters#METHOD} for each method of {@code service}, and for timers {@value Meters#ERROR_TYPE}
     * and, {@code withOutcome}, {@value Meters#OUTCOME}.
     */
    ChainMeters(String timerName, boolean withOutcome, String counterName, Class<?> service, Tags baseTags) {
        this.timerName = Objects.requireNonNull(timerName, "timerName");
        this.withOutcome = withOutcome;
        this.counterName = counterName;
        this.baseTags = Objects.requireNonNull(baseTags, "baseTags");
        this.methodNames = methodNames(service);
    }

    /** The service tag of {@code service}: its interface name. */
    static Tags serviceTags(Class<?> service) {
        return serviceTags(service == null ? "unknown" : service.getName());
    }

    /** The service tag of the interface named {@code service}. */
    static Tags serviceTags(String service) {
        return Tags.of(Meters.SYSTEM, Meters.SYSTEM_WEFT, Meters.SERVICE, service);
    }

    /**
     * The timer of {@code method} ending as {@code type}, in {@code registry}; {@code mocked} (the mock
     * answered) matters only with the outcome tag: {@code mocked}, else {@code ok} or {@code error}.
     */
    Timer timer(MeterRegistry registry, String method, ErrorType type, boolean mocked) {
        MethodMeters meters = snapshot(registry).of(method);
        boolean asMocked = withOutcome && mocked;
        int slot = type.ordinal() * 2 + (asMocked ? 1 : 0);
        Timer timer = meters.timers.get(slot);
        if (timer == null) {
            Timer.Builder builder = Timer.builder(timerName).tags(baseTags).tag(Meters.METHOD, meters.name)
                    .tag(Meters.ERROR_TYPE, type.tag());
            if (withOutcome) {
                builder.tag(Meters.OUTCOME, asMocked ? "mocked" : type == ErrorType.NONE ? "ok" : "error");
            }
            timer = builder.register(registry);
            meters.timers.set(slot, timer);
        }
        return timer;
    }

    /** The counter of {@code method}, in {@code registry}. */
    Counter counter(MeterRegistry registry, String method) {
        MethodMeters meters = snapshot(registry).of(method);
        Counter counter = meters.counter;
        if (counter == null) {
            counter = Counter.builder(counterName).tags(baseTags).tag(Meters.METHOD, meters.name).register(registry);
            meters.counter = counter;
        }
        return counter;
    }

    private Snapshot snapshot(MeterRegistry registry) {
        Snapshot current = snapshot;
        if (current == null || current.registry != registry) {
            current = new Snapshot(registry, methodNames);
            snapshot = current;
        }
        return current;
    }

    private static Set<String> methodNames(Class<?> service) {
        return service == null ? Set.of() : Arrays.stream(service.getMethods())
                .filter(method -> !Modifier.isStatic(method.getModifiers()))
                .map(Method::getName)
                .collect(Collectors.toUnmodifiableSet());
    }

    /** The meters made in one registry, by method. */
    private static final class Snapshot {
        final MeterRegistry registry;
        final Map<String, MethodMeters> byMethod;
        final MethodMeters other = new MethodMeters(Meters.OTHER_METHOD);

        Snapshot(MeterRegistry registry, Set<String> methodNames) {
            this.registry = registry;
            Map<String, MethodMeters> map = new HashMap<>();
            for (String name : methodNames) {
                map.put(name, new MethodMeters(name));
            }
            this.byMethod = Map.copyOf(map);
        }

        MethodMeters of(String method) {
            MethodMeters meters = method == null ? null : byMethod.get(method);
            return meters == null ? other : meters;
        }
    }

    /** The meters of one method (or of every undeclared one). */
    private static final class MethodMeters {
        final String name;
        final AtomicReferenceArray<Timer> timers = new AtomicReferenceArray<>(SLOTS);
        volatile Counter counter;

        MethodMeters(String name) {
            this.name = name;
        }
    }
}
