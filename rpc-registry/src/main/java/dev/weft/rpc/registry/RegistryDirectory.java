package dev.weft.rpc.registry;

import dev.weft.rpc.protocol.filter.CallContext;
import dev.weft.rpc.protocol.ServiceKey;
import com.google.common.base.Ticker;
import com.google.common.collect.Maps;
import com.google.common.util.concurrent.MoreExecutors;
import dev.weft.rpc.cluster.AbstractDirectory;
import dev.weft.rpc.cluster.DirectoryListener;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionLoader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.Executor;
import java.util.function.Function;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A {@code Directory} fed by a {@link Registry} subscription: the providers of one service
 * (interface, {@code group}, {@code version}), referred through the {@link Protocol} their URL
 * names, with the service's override rules ({@link Configurator}) applied to them and to the
 * consumer URL.
 *
 * <p><b>State.</b> Every notification records the raw list of its category (providers or
 * configurators) and asks for a refresh; the refresh recomputes the whole state from the raw
 * lists and the consumer URL as written ({@link DirectoryState}), so removing a rule restores
 * exactly what was there. What each provider comes to depends only on its raw URL, the consumer
 * URL and the rules, so while those two stay the same a provider joining or leaving costs the
 * work for that provider (the others keep their results, views and invokers); a change of the
 * rules computes every provider again. Nothing is published until every category (providers, rules, routing rules) has been notified once
 * (so a provider a rule disables never takes a call). Refreshes run one at a time on the
 * executor given to the builder, coalesced: each applies the latest lists, never an older one
 * after a newer one.
 *
 * <p><b>Invokers.</b> The directory refers and destroys the protocol invokers it lists. A
 * provider whose refer URL (provider URL plus consumer parameters, see {@link DirectoryState})
 * is unchanged keeps its protocol invoker: a rule that changes {@code weight}, {@code timeout},
 * {@code actives} or a method key makes a new view with the new URL around the same invoker,
 * opening no connection; the per-call keys among them ({@code timeout}, {@code actives}) reach the
 * invoker's consumer filter chain and protocol through each call ({@link ProviderView}). A
 * provider that leaves is destroyed once its calls in flight have returned.
 *
 * <p><b>Empty.</b> An explicit empty providers category ({@code empty://...category=providers})
 * empties the directory (calls then fail with "no provider"), unless the consumer URL says
 * {@value #ENABLE_EMPTY_PROTECTION_KEY}{@code =true}: then the last providers keep serving. A
 * registry that cannot read (disconnected) announces nothing, so the last state keeps serving.
 * Rules that disable every provider are honoured (the list becomes empty, with a warning).
 *
 * <p><b>Cache file.</b> With {@link Builder#cacheFile} the raw lists are saved after each refresh,
 * and a directory whose registry is unavailable and has delivered no providers by the end of
 * {@link Builder#build()} starts from the saved lists until the registry delivers.
 *
 * <p><b>Routing.</b> The directory also follows the service's {@value Categories#ROUTERS}
 * category: condition rules ({@link ConditionRule}) and tag routing ({@link RuleRouter}). Rules are
 * checked when they arrive: while one is malformed, it is refused (logged once, counted) and the
 * routing rules last accepted keep serving (at start, the well-formed ones). Each published state
 * carries the routing, applied to its providers once per method and call tag, so pickers are built
 * over the routed list and a call only looks its route up.
 *
 * <p><b>Bad input</b> (a rule or provider URL that cannot be used, a rule value that a consumer
 * filter rejects, such as {@code actives=-1}, or that {@link RuleValues} refuses, such as
 * {@code timeout=3s}) is logged once with the URL and the reason and left out; the other rules
 * and providers are unaffected. A rule that a listener (a cluster invoker, the mock wrapper)
 * refuses when it checks a new state, or when it joins, is left out the same way. A problem is
 * logged (and counted) when it appears, not again on each refresh while it stays. A rule that sets a
 * key no module declares ({@link Builder#unknownKeys}) is applied, with a warning naming the
 * closest known key, as {@code refer} warns.
 *
 * <p>Thread-safe. {@link #destroy()} unsubscribes, then destroys every invoker it referred
 * (after their calls in flight); it does not close the registry.
 *
 * @param <T> the service interface
 */
public final class RegistryDirectory<T> extends AbstractDirectory<T> {

    /** Consumer key: keep the last providers when the registry's providers category becomes empty (default false). */
    public static final String ENABLE_EMPTY_PROTECTION_KEY = "enable-empty-protection";

    private static final Logger log = LoggerFactory.getLogger(RegistryDirectory.class);
    /** How every report of a rule left out begins. */
    private static final String RULE_LEFT_OUT = "Override rule left out: ";
    /** How every report of a malformed routing rule begins. */
    private static final String ROUTING_RULE_REFUSED = "Routing rule refused: ";

    private final Class<T> type;
    private final URL consumerUrl;
    private final URL subscribeUrl;
    private final ServiceKey serviceKey;
    private final boolean emptyProtection;
    private final Registry registry;
    private final Protocol protocol;
    private final ExtensionLoader<Protocol> protocols;
    private final ExtensionDirector director;
    private final Ticker ticker;
    private final CoalescingRefresher refresher;
    private final NotifyListener listener = this::onNotify;
    private final ProblemLog problems = new ProblemLog(log);
    private final AtomicLong refreshes = new AtomicLong();
    private final AtomicLong rejectedRules = new AtomicLong();

    private final Object lock = new Object();
    /** Orders the writes of the raw lists (notifications and the cache file seed). */
    private final Object inputLock = new Object();
    private final RegistryCacheFile cacheFile;
    /** Raw providers as last notified; {@code null} until the first notification. */
    private volatile List<URL> rawProviders;
    /** Raw rules as last notified; {@code null} until the first notification. */
    private volatile List<URL> rawConfigurators;
    /** Raw routing rules as last notified; {@code null} until the first notification. */
    private volatile List<URL> rawRouters;
    private final Function<URL, List<String>> unknownKeys;
    /** Where the routing rules find a call's tag when its invocation does not carry one. */
    private final CallContext callContext;
    private volatile long lastRefreshNanos = -1;
    private volatile boolean destroyed;
    // Guarded by lock: the current view of each provider this directory referred, by refer URL
    // (one protocol invoker per refer URL, shared by the views of successive states).
    private Map<URL, ProviderView<T>> views = Map.of();
    private DirectoryState lastState;
    // Guarded by lock: the rules of the last published state, and the rules a published state
    // was refused with, while the registry still holds them.
    // Written under lock, read by observers without it.
    private volatile OverrideRules publishedRules = OverrideRules.none();
    private final Map<Configurator, String> vetoedRules = new LinkedHashMap<>();
    // Guarded by lock: the routing rules accepted last, the raw list they were read from, and why
    // a rule of that list was refused (reported with every refresh while the list stays).
    private List<ConditionRule> routingRules;
    private List<URL> routingInput;
    private List<String> routingRefusals = List.of();
    // Guarded by lock: what the refresh under way found (null outside a refresh), and the last one.
    private Set<String> roundProblems;
    private Set<String> roundWarnings;
    private Set<String> lastProblems = Set.of();
    private Set<String> lastWarnings = Set.of();

    private RegistryDirectory(Builder<T> builder) {
        super(builder.type, builder.consumerUrl);
        this.type = builder.type;
        this.consumerUrl = builder.consumerUrl;
        this.serviceKey = ServiceKey.of(consumerUrl);
        if (!type.getName().equals(serviceKey.getInterfaceName())) {
            throw new IllegalArgumentException("consumer URL interface: " + serviceKey.getInterfaceName()
                    + " (expected: " + type.getName() + ") in " + consumerUrl);
        }
        this.emptyProtection = consumerUrl.getParameter(ENABLE_EMPTY_PROTECTION_KEY, false);
        this.registry = builder.registry;
        this.cacheFile = builder.cacheFile;
        this.director = builder.director;
        this.protocols = director.getExtensionLoader(Protocol.class);
        this.protocol = protocols.getAdaptiveExtension();
        this.ticker = builder.ticker;
        this.refresher = new CoalescingRefresher(builder.executor, this::refresh);
        this.unknownKeys = builder.unknownKeys;
        this.callContext = CallContext.of(builder.director);
        this.subscribeUrl = consumerUrl.addParameter(Categories.CATEGORY_KEY,
                Categories.PROVIDERS + "," + Categories.CONFIGURATORS + "," + Categories.ROUTERS);
    }

    /**
     * The URL a consumer refers a provider with: {@code providerUrl} with the consumer's
     * parameters on top ({@code timeout}, {@code retries}, method keys...), except the keys that
     * describe the provider instance ({@code group}, {@code version}, {@code category},
     * {@code dynamic}, {@code enabled}, {@code disabled}, {@code weight}, {@code warmup},
     * {@code timestamp}), which stay the provider's. The one rule for every provider source: this
     * directory applies it to each provider the registry lists, and providers named directly
     * (rpc-bootstrap's {@code url} key) get it too.
     */
    public static URL referUrl(URL providerUrl, URL consumerUrl) {
        return DirectoryState.merge(Objects.requireNonNull(providerUrl, "providerUrl"),
                Objects.requireNonNull(consumerUrl, "consumerUrl"));
    }

    /**
     * A builder for the directory of {@code type} as {@code consumerUrl} refers it (its path or
     * {@code interface} must be {@code type}'s name), fed by {@code registry}.
     */
    public static <T> Builder<T> builder(Class<T> type, URL consumerUrl, Registry registry) {
        return new Builder<>(type, consumerUrl, registry);
    }

    private void subscribe() {
        registry.subscribe(subscribeUrl, listener);
        if (cacheFile != null && !registry.isAvailable()) {
            seedFromCacheFile();
        }
    }

    /**
     * Fills the lists the subscription has not delivered yet from the cache file; called only
     * when the registry is unavailable, since a connected registry's first read is on its way
     * and the file may hold providers and rules deleted since. A notification that arrives later
     * replaces them.
     */
    private void seedFromCacheFile() {
        boolean seeded = false;
        synchronized (inputLock) {
            if (rawProviders == null) {
                Optional<List<URL>> cached = cacheFile.load(serviceKey, Categories.PROVIDERS);
                if (cached.isPresent()) {
                    rawProviders = cached.get();
                    seeded = true;
                }
            }
            if (seeded && rawConfigurators == null) {
                rawConfigurators = cacheFile.load(serviceKey, Categories.CONFIGURATORS).orElse(List.of());
            }
            if (seeded && rawRouters == null) {
                rawRouters = cacheFile.load(serviceKey, Categories.ROUTERS).orElse(List.of());
            }
        }
        if (seeded) {
            log.info("Registry {} has not delivered the providers of {} yet; starting from cache file {}",
                    registry.getUrl(), serviceKey, cacheFile.getPath());
            refresher.request();
        }
    }

    // ------------------------------------------------------------------ notifications

    private void onNotify(List<URL> urls) {
        if (destroyed || urls.isEmpty()) {
            return;
        }
        Map<String, List<URL>> byCategory = new LinkedHashMap<>();
        for (URL url : urls) {
            byCategory.computeIfAbsent(Categories.of(url), c -> new ArrayList<>()).add(url);
        }
        byCategory.forEach(this::record);
        refresher.request();
    }

    private void record(String category, List<URL> urls) {
        List<URL> present = new ArrayList<>(urls.size());
        for (URL url : urls) {
            if (!Categories.isEmptyMarker(url)) {
                present.add(url);
            }
        }
        synchronized (inputLock) {
            recordLocked(category, present);
        }
    }

    private void recordLocked(String category, List<URL> present) {
        switch (category) {
            case Categories.PROVIDERS -> {
                List<URL> last = rawProviders;
                if (present.isEmpty() && emptyProtection && last != null && !last.isEmpty()) {
                    log.warn("Providers of {} became empty in the registry; keeping the last {} ({}=true)",
                            serviceKey, last.size(), ENABLE_EMPTY_PROTECTION_KEY);
                    return;
                }
                rawProviders = List.copyOf(present);
            }
            case Categories.CONFIGURATORS -> rawConfigurators = List.copyOf(present);
            case Categories.ROUTERS -> rawRouters = List.copyOf(present);
            default -> problems.report("Registry category " + category + " of " + serviceKey + " (expected: "
                    + Categories.PROVIDERS + ", " + Categories.CONFIGURATORS + " or " + Categories.ROUTERS + ")");
        }
    }

    // ------------------------------------------------------------------ refresh

    private void refresh() {
        synchronized (lock) {
            List<URL> providers = rawProviders;
            List<URL> configurators = rawConfigurators;
            List<URL> routers = rawRouters;
            if (destroyed || providers == null || configurators == null || routers == null) {
                return;
            }
            roundProblems = new LinkedHashSet<>();
            roundWarnings = new LinkedHashSet<>();
            try {
                refresh(providers, configurators, routers);
            } finally {
                endRound();
            }
        }
    }

    /** Logs what this refresh found that the last one did not (a problem that stays is logged once). Holds the lock. */
    private void endRound() {
        for (String problem : roundProblems) {
            if (!lastProblems.contains(problem)) {
                report(problem);
            }
        }
        for (String warning : roundWarnings) {
            if (!lastWarnings.contains(warning)) {
                log.warn(warning);
            }
        }
        lastProblems = roundProblems;
        lastWarnings = roundWarnings;
        roundProblems = null;
        roundWarnings = null;
    }

    /** One refresh (see {@link #refresh()}). Holds the lock. */
    private void refresh(List<URL> providers, List<URL> configurators, List<URL> routers) {
        routing(routers);
        OverrideRules parsed = OverrideRules.parse(configurators, this::reportForService);
        vetoedRules.keySet().retainAll(parsed.getRules());
        vetoedRules.values().forEach(this::reportForService);
        warnUnknownKeys(parsed);
        OverrideRules rules = parsed.without(rulesWithBadValues(parsed)).without(vetoedRules.keySet());
        String veto = apply(compute(providers, rules), rules, null);
        if (veto != null) {
            List<Configurator> fresh = new ArrayList<>(rules.getRules());
            fresh.removeAll(publishedRules.getRules());
            if (fresh.isEmpty()) {
                reportForService("Registry state vetoed; the last state keeps serving: " + veto);
            } else {
                leaveOutRefusedRules(providers, rules, fresh, null);
            }
        }
        if (cacheFile != null && lastState != null) {
            cacheFile.save(serviceKey, Categories.PROVIDERS, providers);
            cacheFile.save(serviceKey, Categories.CONFIGURATORS, configurators);
            cacheFile.save(serviceKey, Categories.ROUTERS, routers);
        }
        refreshes.incrementAndGet();
        lastRefreshNanos = ticker.read();
    }

    /**
     * Reads the routing rules when {@code routers} differs from the list read last: when every one
     * is well-formed they are accepted (the enabled ones, in the order they apply); otherwise each
     * malformed one is refused and the rules accepted last keep serving (at start, the well-formed
     * ones). The refusals are reported with every refresh while the list stays, so each is logged
     * once. Holds the lock.
     */
    private void routing(List<URL> routers) {
        if (!routers.equals(routingInput)) {
            List<ConditionRule> parsed = new ArrayList<>(routers.size());
            List<String> refusals = new ArrayList<>();
            for (URL url : routers) {
                try {
                    ConditionRule rule = ConditionRule.of(url);
                    if (rule.isEnabled()) {
                        parsed.add(rule);
                    }
                } catch (IllegalArgumentException e) {
                    refusals.add(ROUTING_RULE_REFUSED + e.getMessage() + "; the routing rules accepted last keep serving");
                }
            }
            parsed.sort(ConditionRule.ORDER);
            if (refusals.isEmpty() || routingRules == null) {
                routingRules = List.copyOf(parsed);
            }
            routingInput = routers;
            routingRefusals = List.copyOf(refusals);
        }
        routingRefusals.forEach(this::reportForService);
    }

    /** Warns about each key a rule sets that no module on the class path declares (the rule still applies). */
    private void warnUnknownKeys(OverrideRules rules) {
        for (Configurator rule : rules.getRules()) {
            List<String> unknown = unknownKeys.apply(consumerUrl.withParameters(rule.getParameters()));
            for (String key : unknown) {
                roundWarnings.add("Override rule key " + key + " in " + rule.getUrl() + " of " + serviceKey
                        + ": no module on the class path reads it (the rule applies as written)");
            }
        }
    }

    /**
     * The rules with a value that a consumer filter would reject ({@code actives=-1}), or a
     * {@code timeout} or {@code weight} that {@link RuleValues} refuses, each reported. Filters,
     * the protocol and the balancers read such keys from the view (see {@link ProviderView}), after
     * their chain was built and checked, so the values are checked here instead (whether or not a
     * target had the key before); like a rule that cannot be read, a rule with a bad value is left
     * out whole and the last good value keeps serving.
     */
    private Set<Configurator> rulesWithBadValues(OverrideRules rules) {
        Set<Configurator> bad = new LinkedHashSet<>();
        for (Configurator rule : rules.getRules()) {
            String problem = OverrideRules.valueProblem(rule, director);
            if (problem != null) {
                bad.add(rule);
                reportForService(RULE_LEFT_OUT + problem);
            }
        }
        return bad;
    }

    private DirectoryState compute(List<URL> providers, OverrideRules rules) {
        return DirectoryState.compute(consumerUrl, providers, rules,
                url -> protocols.hasExtension(url.getProtocol()), this::reportForService, lastState);
    }

    /**
     * After a state with {@code rules} was vetoed (a cluster invoker or the mock wrapper refused a
     * setting): publishes the state without the {@code suspects} (the rules the last published
     * state did not have, or all of them for a listener {@code joining}), then adds them back one
     * at a time, in order, leaving out (and remembering, while the registry holds them) each one
     * that is vetoed. So a refused rule never keeps providers that join or leave, the other rules,
     * or a consumer starting, from being served. When even the state without the suspects is
     * vetoed, the last state keeps serving and this returns false (reported unless for a listener
     * {@code joining}: then the consumer's own settings are refused, and its join fails). Holds the lock.
     */
    private boolean leaveOutRefusedRules(List<URL> providers, OverrideRules rules, List<Configurator> suspects,
                                      DirectoryListener<T> joining) {
        OverrideRules accepted = rules.without(Set.copyOf(suspects));
        String baseVeto = apply(compute(providers, accepted), accepted, joining);
        if (baseVeto != null) {
            if (joining == null) {
                reportForService("Registry state vetoed; the last state keeps serving: " + baseVeto);
            }
            return false;
        }
        for (Configurator rule : suspects) {
            Set<Configurator> others = new LinkedHashSet<>(suspects);
            others.remove(rule);
            others.removeAll(accepted.getRules());
            OverrideRules candidate = rules.without(others);
            String ruleVeto = apply(compute(providers, candidate), candidate, joining);
            if (ruleVeto == null) {
                accepted = candidate;
            } else {
                String refusal = RULE_LEFT_OUT + "the consumer refused it (" + ruleVeto + ") in " + rule.getUrl();
                vetoedRules.put(rule, refusal);
                reportForService(refusal);
            }
        }
        return true;
    }

    /**
     * A cluster invoker or mock wrapper joining this directory refused its state: publishes the
     * state without the rules it refuses (see {@link #leaveOutRefusedRules}), so that a consumer
     * starting while a bad rule is in the registry starts without that rule.
     */
    @Override
    protected boolean onListenerRefusal(DirectoryListener<T> joining) {
        synchronized (lock) {
            if (destroyed || lastState == null || publishedRules.isEmpty()) {
                return false;
            }
            return leaveOutRefusedRules(rawProviders, publishedRules, publishedRules.getRules(), joining);
        }
    }

    /**
     * Refers the new providers, makes the views, publishes, then retires what left; returns why
     * the state was vetoed (then the last state keeps serving and what was referred for it is
     * retired), or null when published. Holds the lock. A provider whose refer URL was listed
     * before keeps its invoker, and its view too when the view URL is the same, so unchanged
     * providers cost a lookup each.
     */
    private String apply(DirectoryState state, OverrideRules rules, DirectoryListener<T> joining) {
        int size = state.providers().size();
        Map<URL, ProviderView<T>> nextViews = Maps.newHashMapWithExpectedSize(size);
        List<Invoker<T>> invokers = new ArrayList<>(size);
        for (DirectoryState.Provider provider : state.providers()) {
            ProviderView<T> view = views.get(provider.referUrl());
            if (view == null) {
                ReferredProvider<T> referredProvider;
                try {
                    referredProvider = new ReferredProvider<>(protocol.refer(type, provider.referUrl()));
                } catch (RuntimeException | LinkageError e) {
                    // LinkageError: a protocol extension whose classes cannot load fails this provider only
                    reportForService("Provider left out: refer " + provider.referUrl() + " failed: " + e);
                    continue;
                }
                view = new ProviderView<>(referredProvider, provider.viewUrl());
            } else if (!view.getUrl().equals(provider.viewUrl())) {
                view = new ProviderView<>(view.provider(), provider.viewUrl());
            }
            nextViews.put(provider.referUrl(), view);
            invokers.add(view);
        }
        if (invokers.isEmpty() && state.disabledCount() > 0) {
            reportForService("Every provider (" + state.disabledCount() + ") is disabled by override rules or"
                    + " registers itself disabled; calls fail with no provider");
        }
        try {
            publish(state.consumerUrl(), invokers, new RuleRouter<>(state.consumerUrl(), routingRules, callContext), joining);
        } catch (RuntimeException e) {
            retireAllBut(nextViews, views);
            return String.valueOf(e.getMessage());
        }
        retireAllBut(views, nextViews);
        views = nextViews;
        lastState = state;
        publishedRules = rules;
        return null;
    }

    /** Retires the invoker of each provider of {@code from} whose refer URL {@code keep} does not hold. */
    private static <T> void retireAllBut(Map<URL, ProviderView<T>> from, Map<URL, ProviderView<T>> keep) {
        from.forEach((referUrl, view) -> {
            if (!keep.containsKey(referUrl)) {
                view.provider().retire();
            }
        });
    }

    /** Reports {@code problem} of this service: during a refresh at its end when new to that refresh, else now. */
    private void reportForService(String problem) {
        String message = problem + " [service " + serviceKey + ", registry " + registry.getUrl() + "]";
        if (roundProblems != null && Thread.holdsLock(lock)) {
            roundProblems.add(message);
        } else {
            report(message);
        }
    }

    /** Logs {@code message} once; a rule refused for the first time counts in {@link #getRejectedRuleCount()}. */
    private void report(String message) {
        boolean first = problems.report(message);
        if (first && (message.startsWith(RULE_LEFT_OUT) || message.startsWith(ROUTING_RULE_REFUSED))) {
            rejectedRules.incrementAndGet();
        }
    }

    // ------------------------------------------------------------------ Directory

    /** Unsubscribes, stops listing, and destroys every invoker it referred once its calls return; idempotent. */
    @Override
    public void destroy() {
        // Never synchronized on this: a refresh holds lock and then publishes (which locks this),
        // so destroy takes the same order, lock first.
        synchronized (lock) {
            if (destroyed) {
                return;
            }
            destroyed = true;
        }
        try {
            registry.unsubscribe(subscribeUrl, listener);
        } catch (RuntimeException e) {
            log.warn("Unsubscribing {} from {} failed", serviceKey, registry.getUrl(), e);
        }
        synchronized (lock) {
            super.destroy();
            retireAllBut(views, Map.of());
            views = Map.of();
            lastState = null;
        }
    }

    // ------------------------------------------------------------------ observation

    /** The consumer URL as given, without rules. */
    public URL getConsumerUrl() {
        return consumerUrl;
    }

    /** Every provider listed now (views with the rules applied), in registry order. */
    public List<Invoker<T>> getInvokers() {
        return getAllInvokers();
    }

    /** Whether every category has been notified and a state published. */
    public boolean isReady() {
        return lastRefreshNanos != -1;
    }

    /** How many states have been computed and published. */
    public long getRefreshCount() {
        return refreshes.get();
    }

    /** How many times a rule or provider was left out (each distinct problem is logged once). */
    public long getProblemCount() {
        return problems.total();
    }

    /** How many override rules the published state applies (rules left out are not counted). */
    public int getRuleCount() {
        return publishedRules.getRules().size();
    }

    /**
     * How many times an override rule was left out as unusable (unreadable, a bad value, or refused
     * by the consumer), each rule counted once when first left out for a given reason (the same
     * rule left out again on later refreshes is not counted again). Grows only.
     */
    public long getRejectedRuleCount() {
        return rejectedRules.get();
    }

    /** Time since the last state was published; empty before the first. */
    public Optional<Duration> getTimeSinceLastRefresh() {
        long last = lastRefreshNanos;
        return last == -1 ? Optional.empty() : Optional.of(Duration.ofNanos(ticker.read() - last));
    }

    /** The registry's connection health, when it reports one. */
    public Optional<RegistryHealth> getRegistryHealth() {
        return registry instanceof RegistryHealth health ? Optional.of(health) : Optional.empty();
    }

    @Override
    public String toString() {
        return "RegistryDirectory[" + serviceKey + ", " + getInvokers().size() + " invokers, " + getUrl() + "]";
    }

    /** Builds a subscribed {@link RegistryDirectory}. Not thread-safe. */
    public static final class Builder<T> {
        private final Class<T> type;
        private final URL consumerUrl;
        private final Registry registry;
        private ExtensionDirector director = ExtensionDirector.getDefault();
        private Executor executor = MoreExecutors.directExecutor();
        private Ticker ticker = Ticker.systemTicker();
        private RegistryCacheFile cacheFile;
        private Function<URL, List<String>> unknownKeys = url -> List.of();

        private Builder(Class<T> type, URL consumerUrl, Registry registry) {
            this.type = Objects.requireNonNull(type, "type");
            this.consumerUrl = Objects.requireNonNull(consumerUrl, "consumerUrl");
            this.registry = Objects.requireNonNull(registry, "registry");
        }

        /** Where the {@link Protocol} extensions come from (default: the default director). */
        public Builder<T> director(ExtensionDirector director) {
            this.director = Objects.requireNonNull(director, "director");
            return this;
        }

        /**
         * Where refreshes run (default: on the thread that delivers the notification). Give a
         * shared pool to take the work off the registry's thread; refreshes of one directory
         * still run one at a time.
         */
        public Builder<T> executor(Executor executor) {
            this.executor = Objects.requireNonNull(executor, "executor");
            return this;
        }

        /** The clock behind {@link #getTimeSinceLastRefresh()} (default: the system ticker). */
        public Builder<T> ticker(Ticker ticker) {
            this.ticker = Objects.requireNonNull(ticker, "ticker");
            return this;
        }

        /**
         * Where the last lists are kept (shared by the directories of one registry; the caller
         * closes it). When the registry is unavailable ({@link Registry#isAvailable()} false) and
         * has delivered no providers by the end of {@link #build()}, the directory starts from the file.
         */
        public Builder<T> cacheFile(RegistryCacheFile cacheFile) {
            this.cacheFile = Objects.requireNonNull(cacheFile, "cacheFile");
            return this;
        }

        /**
         * How to find the keys of an override rule that no module reads: given a consumer URL
         * holding the parameters a rule sets, one line per unknown key, such as
         * {@code whoami.mokc (did you mean 'whoami.mock'?)}. Each is warned about once while the rule
         * stays (the rule still applies). Default: none are unknown. {@code rpc-bootstrap} gives
         * the check {@code refer} makes.
         */
        public Builder<T> unknownKeys(Function<URL, List<String>> unknownKeys) {
            this.unknownKeys = Objects.requireNonNull(unknownKeys, "unknownKeys");
            return this;
        }

        /**
         * The directory, subscribed to the registry.
         *
         * @throws IllegalArgumentException when the consumer URL names another interface or has
         *         a bad {@value #ENABLE_EMPTY_PROTECTION_KEY}
         */
        public RegistryDirectory<T> build() {
            RegistryDirectory<T> directory = new RegistryDirectory<>(this);
            directory.subscribe();
            return directory;
        }
    }
}
