package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ServiceKey;
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
 * <p>It also holds the URLs of the exported services with the override rules addressed to them
 * applied ({@link #applyRules}), which the filter reads the limit from, so that {@code executes}
 * follows a rule live.
 *
 * <p>Thread-safe.
 */
public final class ExecuteLimits {

    private final LongAdder busyAnswers = new LongAdder();
    private final ConcurrentMap<String, LongAdder> busyByMethod = new ConcurrentHashMap<>();
    private final ConcurrentMap<String, AdaptiveLimit> adaptive = new ConcurrentHashMap<>();
    /** The adaptive limits by {@link #exportKey} and method: what a protocol asks before it queues a call. */
    private final ConcurrentMap<String, AdaptiveLimit> adaptiveByExport = new ConcurrentHashMap<>();

    /** The exported services' URLs with their override rules applied, by {@link #exportKey}; empty without rules. */
    private final ConcurrentMap<String, URL> ruled = new ConcurrentHashMap<>();
    private final LongAdder rulesRefused = new LongAdder();

    private ExecuteLimits() {
    }

    /**
     * From now on the {@code executes} filter of the service exported as {@code exported} reads its
     * limits ({@code executes}, {@code <method>.executes}) from {@code configured}: the exported URL
     * with the override rules addressed to the provider applied (checked by the caller); the
     * exported URL itself (no rule applies any more) ends that. Only a service exported with an
     * {@code executes} key has the filter in its chain.
     */
    public void applyRules(URL exported, URL configured) {
        Objects.requireNonNull(exported, "exported");
        Objects.requireNonNull(configured, "configured");
        if (configured.equals(exported)) {
            ruled.remove(exportKey(exported));
        } else {
            ruled.put(exportKey(exported), configured);
        }
    }

    /** Counts a set of override rules a provider refused (a bad {@code executes} value): the last good settings kept. */
    public void ruleRefused() {
        rulesRefused.increment();
    }

    /** Sets of override rules this director's providers refused when they arrived (monotonic). */
    public long rulesRefused() {
        return rulesRefused.sum();
    }

    /** The URL the limits of the chain whose invoker's URL is {@code chainUrl} are read from. */
    URL settingsOf(URL chainUrl) {
        if (ruled.isEmpty()) {
            return chainUrl;
        }
        URL configured = ruled.get(exportKey(chainUrl));
        return configured != null ? configured : chainUrl;
    }

    /**
     * {@code group/interface:version}: one exported service. Not the port: a chain may be built
     * before its port is bound ({@code :0}); a service exported twice by one director on two ports
     * follows the rules of its latest export.
     */
    private static String exportKey(URL url) {
        return ServiceKey.of(url).toString();
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

    void adaptiveLimitOf(String name, URL chainUrl, String method, AdaptiveLimit limit) {
        adaptive.put(name, limit);
        adaptiveByExport.put(exportKey(chainUrl) + "#" + method, limit);
    }

    /**
     * For a protocol that queues calls for a business thread, as it reads a call: true when
     * {@code method} of the service exported as {@code exported} runs under {@code executes=auto}
     * (override rules applied) and its adaptive limit has as many calls in flight as it allows now.
     * The call is then counted as a busy answer, and the protocol answers it {@code NOT_PROCESSED}
     * at once, without queueing it or taking a thread. False otherwise (no limit, a fixed one, room
     * left, or no call has reached the limit yet): the call queues and the filter decides.
     */
    public boolean refuseAtAdaptiveLimit(URL exported, String interfaceName, String method) {
        Objects.requireNonNull(exported, "exported");
        Objects.requireNonNull(method, "method");
        AdaptiveLimit limit = adaptiveByExport.get(exportKey(exported) + "#" + method);
        if (limit == null || limit.inFlight() < limit.limit() || !ExecuteLimitFilter.isAdaptive(settingsOf(exported), method)) {
            return false;
        }
        busy(interfaceName + "#" + method);
        return true;
    }

    @Override
    public String toString() {
        return "ExecuteLimits[busy answers " + busyAnswers() + ", adaptive " + adaptiveLimits() + "]";
    }
}
