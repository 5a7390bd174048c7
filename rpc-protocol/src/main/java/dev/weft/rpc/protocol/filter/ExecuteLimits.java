package dev.weft.rpc.protocol.filter;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ServiceKey;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.function.BiConsumer;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;
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
    /** The adaptive limits by {@code interface#method}: the latest export's, for {@link #adaptiveLimits()}. */
    private final ConcurrentMap<String, AdaptiveLimit> adaptive = new ConcurrentHashMap<>();
    /** The adaptive limits by {@link #exportKey} and method. */
    private final ConcurrentMap<String, AdaptiveLimit> adaptiveByExport = new ConcurrentHashMap<>();
    private final Ticker ticker;
    /** Told of each call refused on receipt: no provider filter sees such a call. */
    private final List<BiConsumer<String, String>> receiptRefusalListeners = new CopyOnWriteArrayList<>();

    /** The exported services' URLs with their override rules applied, by {@link #exportKey}; empty without rules. */
    private final ConcurrentMap<String, URL> ruled = new ConcurrentHashMap<>();
    private final LongAdder rulesRefused = new LongAdder();

    private ExecuteLimits(Ticker ticker) {
        this.ticker = ticker;
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
        return director.getService(ExecuteLimits.class, d -> new ExecuteLimits(d.getTicker()));
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

    /**
     * The adaptive limit of {@code method} of the service whose chain URL is {@code chainUrl}, created
     * on first use: one per exported service and method, whether the call was admitted on receipt
     * or by the filter.
     */
    AdaptiveLimit adaptiveLimit(URL chainUrl, String interfaceName, String method) {
        return adaptiveByExport.computeIfAbsent(exportKey(chainUrl) + "#" + method, key -> {
            AdaptiveLimit created = new AdaptiveLimit(ticker);
            adaptive.put(interfaceName + "#" + method, created);
            return created;
        });
    }

    /**
     * For a protocol that queues calls for business threads, as it receives a call of
     * {@code method} of the service exported as {@code exported}: when the method runs under
     * {@code executes=auto} (override rules applied), admits it under its adaptive limit there and
     * then, so that the limit counts the calls waiting for a thread and times each call from its
     * receipt. The answer is {@link Admission#isRefused() refused} (counted as a busy answer; the
     * protocol answers {@code NOT_PROCESSED} at once, without queueing the call), admitted (the
     * protocol marks the call {@link dev.weft.rpc.common.CallOptions#withAdmittedOnReceipt admitted}
     * and ends the admission exactly when the call ends), or {@link Admission#NOT_LIMITED} (no
     * adaptive limit: the filter decides on the thread, as for a fixed {@code executes=N}).
     */
    public Admission admitOnReceipt(URL exported, String interfaceName, String method) {
        Objects.requireNonNull(exported, "exported");
        Objects.requireNonNull(interfaceName, "interfaceName");
        Objects.requireNonNull(method, "method");
        if (!ExecuteLimitFilter.isAdaptive(settingsOf(exported), method)) {
            return Admission.NOT_LIMITED;
        }
        AdaptiveLimit limit = adaptiveLimit(exported, interfaceName, method);
        AdaptiveLimit.Permit permit = limit.tryAcquire().orElse(null);
        if (permit == null) {
            busy(interfaceName + "#" + method);
            receiptRefusalListeners.forEach(listener -> listener.accept(interfaceName, method));
            return Admission.REFUSED;
        }
        return new Admission(permit);
    }

    /**
     * From now on {@code listener} is called with the interface name and method of each call
     * {@link #admitOnReceipt} refuses (on the protocol's network thread: it must be quick and must
     * not throw). Such a call never reaches the provider's filters, so a metrics binder counts it
     * here; busy answers of the {@code executes} filter it sees in the chain.
     */
    public void onRefusedOnReceipt(BiConsumer<String, String> listener) {
        receiptRefusalListeners.add(Objects.requireNonNull(listener, "listener"));
    }

    /**
     * What {@link #admitOnReceipt} answered for one call. An admitted call's admission ends once, by
     * {@link #ended} or {@link #notRun}: later calls of either do nothing, so every path that ends a
     * call may call them. Thread-safe.
     */
    public static final class Admission {

        /** The method has no adaptive limit: nothing to end. */
        public static final Admission NOT_LIMITED = new Admission(null);
        private static final Admission REFUSED = new Admission(null);

        private final AdaptiveLimit.Permit permit;
        private final AtomicBoolean ended = new AtomicBoolean();

        private Admission(AdaptiveLimit.Permit permit) {
            this.permit = permit;
        }

        /** The method is at its adaptive limit: answer the call busy at once; it must not run. */
        public boolean isRefused() {
            return this == REFUSED;
        }

        /** The call holds a place under the method's adaptive limit until {@link #ended}. */
        public boolean isAdmitted() {
            return permit != null;
        }

        /**
         * The call ended: answered by the service ({@code failure} null, or a business exception):
         * its latency since receipt feeds the limit; failed, refused or never run: it only leaves
         * the limit. Only the first call counts.
         */
        public void ended(Throwable failure) {
            if (permit != null && ended.compareAndSet(false, true)) {
                ExecuteLimitFilter.end(permit, failure);
            }
        }

        /** The call did not run, or ran and was abandoned: it leaves the limit without a latency. Only the first end counts. */
        public void notRun() {
            if (permit != null && ended.compareAndSet(false, true)) {
                permit.ignored();
            }
        }

        @Override
        public String toString() {
            return isRefused() ? "Admission[refused]" : permit == null ? "Admission[not limited]" : "Admission[" + permit + "]";
        }
    }

    @Override
    public String toString() {
        return "ExecuteLimits[busy answers " + busyAnswers() + ", adaptive " + adaptiveLimits() + "]";
    }
}
