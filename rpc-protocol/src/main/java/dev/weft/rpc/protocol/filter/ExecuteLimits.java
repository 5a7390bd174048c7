package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.spi.ExtensionDirector;

import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the {@code executes} filter of one {@link ExtensionDirector}'s providers did: the calls it
 * answered "busy" ({@code NOT_PROCESSED}, under a fixed {@code executes=N} or {@code executes=auto}),
 * and the current adaptive limit of each method under {@code executes=auto}. For operators, tests
 * and metrics binders. Obtained with {@link #of}; two directors never share one.
 *
 * <p>Thread-safe.
 */
public final class ExecuteLimits {

    private final LongAdder busyAnswers = new LongAdder();
    private final ConcurrentMap<String, LongAdder> busyByMethod = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, AdaptiveLimit> adaptive = new ConcurrentHashMap<>();

    private ExecuteLimits() {
    }

    /** The execute limits of {@code director}, created on first use. */
    public static ExecuteLimits of(ExtensionDirector director) {
        Objects.requireNonNull(director, "director");
        return director.getService(ExecuteLimits.class, d -> new ExecuteLimits());
    }

    /** Calls answered "busy" since the director started. */
    public long busyAnswers() {
        return busyAnswers.sum();
    }

    /** Calls answered "busy", by {@code interface#method}. */
    public Map<String, Long> busyAnswersByMethod() {
        Map<String, Long> counts = new TreeMap<>();
        busyByMethod.forEach((method, count) -> counts.put(method, count.sum()));
        return counts;
    }

    /** The current adaptive limit of each {@code executes=auto} method, by {@code interface#method} (the latest export's). */
    public Map<String, Integer> adaptiveLimits() {
        Map<String, Integer> limits = new TreeMap<>();
        adaptive.forEach((method, limit) -> limits.put(method, limit.limit()));
        return limits;
    }

    void busy(String method) {
        busyAnswers.increment();
        busyByMethod.computeIfAbsent(method, m -> new LongAdder()).increment();
    }

    void adaptiveLimitOf(String method, AdaptiveLimit limit) {
        adaptive.put(method, limit);
    }

    @Override
    public String toString() {
        return "ExecuteLimits[busy answers " + busyAnswers() + ", adaptive " + adaptiveLimits() + "]";
    }
}
