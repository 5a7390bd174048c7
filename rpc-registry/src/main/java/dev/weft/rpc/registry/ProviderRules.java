package dev.weft.rpc.registry;

import dev.weft.rpc.common.ThrottledLog;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.protocol.filter.ExecuteLimits;
import dev.weft.rpc.spi.ExtensionDirector;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The override rules an exporting provider applies to itself, live: it subscribes to its service's
 * {@value Categories#CONFIGURATORS} category and, on each change, applies the rules addressed to it
 * ({@link Configurator#appliesToExportedProvider}: by its port, or {@code side=provider}; by its
 * host and application, as a consumer matches rules) to its exported URL, in the consumer's order
 * (general to specific, the last one wins). The provider-side keys read at call time follow that
 * URL: the {@code executes} limit ({@link ExecuteLimits#applyRules}; {@code executes=auto} or a
 * fixed one, per method too).
 *
 * <p>A rule set whose result the provider filters refuse ({@code executes=-1}, {@code executes=soon})
 * is refused as a whole when it arrives: logged at WARN (rate-limited, with counts), counted in
 * {@link #rejectedRules()} and {@link ExecuteLimits#rulesRefused()}, and the last good settings keep serving. A rule that cannot be read
 * at all is left out, as on the consumer.
 *
 * <p>Thread-safe: changes and {@link #close()} are serialised by this object's lock; readers see
 * an immutable URL. {@link #close()} unsubscribes and drops the rules' settings; idempotent.
 */
public final class ProviderRules implements NotifyListener, AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(ProviderRules.class);

    private final Registry registry;
    private final URL exported;
    private final URL subscribed;
    private final ExtensionDirector director;
    private final ThrottledLog problems;
    private final AtomicLong rejected = new AtomicLong();
    private volatile URL current;
    private volatile boolean closed;

    private ProviderRules(Registry registry, URL exported, ExtensionDirector director) {
        this.registry = registry;
        this.exported = exported;
        this.director = director;
        this.current = exported;
        this.subscribed = exported.addParameter(Categories.CATEGORY_KEY, Categories.CONFIGURATORS);
        this.problems = new ThrottledLog(LOG, director.getTicker(), Duration.ofSeconds(10));
    }

    /**
     * Subscribes the provider that exported {@code exported} (its registered URL, with its bound
     * port) to the override rules of its service in {@code registry}.
     *
     * @throws RuntimeException what the registry's {@code subscribe} throws
     */
    public static ProviderRules subscribe(Registry registry, URL exported, ExtensionDirector director) {
        ProviderRules rules = new ProviderRules(Objects.requireNonNull(registry, "registry"), Objects.requireNonNull(exported, "exported"),
                Objects.requireNonNull(director, "director"));
        registry.subscribe(rules.subscribed, rules);
        return rules;
    }

    @Override
    public synchronized void notify(List<URL> urls) {
        if (closed) {
            return;
        }
        OverrideRules rules = OverrideRules.parse(urls, problem -> problems.warn(problem + " (provider " + exported.getAddress() + ")"));
        URL configured = exported;
        for (Configurator rule : rules.getRules()) {
            if (rule.appliesToExportedProvider(exported)) {
                configured = rule.configure(configured);
            }
        }
        try {
            FilterChain.checkKeys(configured, FilterChain.PROVIDER, director);
        } catch (IllegalArgumentException e) {
            rejected.incrementAndGet();
            ExecuteLimits.of(director).ruleRefused();
            problems.warn("Override rules refused by provider " + exported.getAddress() + " of service " + exported.getServiceInterface()
                    + ": " + e.getMessage() + "; the last good settings keep serving (rules: " + rules + ")");
            return;
        }
        if (!configured.equals(current)) {
            LOG.info("Provider {} of service {} applies override rules: {}", exported.getAddress(), exported.getServiceInterface(),
                    configured.getParameters());
        }
        current = configured;
        ExecuteLimits.of(director).applyRules(exported, configured);
    }

    /** The exported URL with the rules addressed to the provider applied (the last good ones). */
    public URL current() {
        return current;
    }

    /** Rule sets refused since the subscription started (monotonic). */
    public long rejectedRules() {
        return rejected.get();
    }

    /** Unsubscribes and drops the rules' settings (the exported ones apply again); idempotent. */
    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            registry.unsubscribe(subscribed, this);
        } finally {
            ExecuteLimits.of(director).applyRules(exported, exported);
        }
    }

    @Override
    public String toString() {
        return "ProviderRules[" + exported.getAddress() + " " + exported.getServiceInterface() + ", " + current.getParameters() + "]";
    }
}
