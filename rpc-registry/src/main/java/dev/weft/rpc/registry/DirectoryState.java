package dev.weft.rpc.registry;

import com.google.common.collect.Maps;
import com.google.common.collect.Sets;
import dev.weft.rpc.protocol.ServiceKey;
import dev.weft.rpc.common.URL;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * What a {@link RegistryDirectory} publishes, computed from its raw inputs only: the consumer URL
 * as written, the provider URLs and the override rules as the registry holds them now. Because
 * nothing earlier is patched, removing a rule gives back exactly the state before it was added.
 * Immutable.
 *
 * <p>For each provider (of the consumer's service key, with a protocol the consumer can refer):
 * <ol>
 *   <li>the <em>refer URL</em>: the provider URL with the consumer's parameters on top, except
 *       the keys that describe the provider instance ({@link #PROVIDER_KEYS}); this is what the
 *       protocol connects with, and it does not depend on the rules, so a rule never reconnects;</li>
 *   <li>the <em>view URL</em>: the refer URL with the rules that apply to it; balancers and
 *       strategies read it;</li>
 *   <li>left out when the view says {@value #DISABLED_KEY}{@code =true}, or has no
 *       {@value #DISABLED_KEY} and says {@code enabled=false}.</li>
 * </ol>
 * A rule that would give a target a value of the wrong kind ({@link Configurator#incompatibilityWith})
 * is left out of the whole state, so it cannot take a provider out by accident.
 */
final class DirectoryState {

    /** Provider and override key: {@code true} takes the provider out of every consumer's list (default {@code false}). */
    static final String DISABLED_KEY = "disabled";

    /**
     * Keys a consumer URL never overrides on a provider URL: they describe the provider instance
     * ({@code weight}, {@code warmup} and {@code timestamp} are rpc-loadbalance's keys).
     */
    static final Set<String> PROVIDER_KEYS = Set.of(ServiceKey.GROUP_KEY, ServiceKey.VERSION_KEY,
            Categories.CATEGORY_KEY, MemoryRegistry.DYNAMIC_KEY, Configurator.ENABLED_KEY, DISABLED_KEY,
            "weight", "warmup", "timestamp");

    /** One provider: what to refer, the rules that apply to it, and how the consumer sees it. */
    record Provider(URL referUrl, List<Configurator> applied, URL viewUrl) {
    }

    private final URL consumerUrl;
    private final List<Provider> providers;
    private final int disabled;
    /** Raw provider URL to refer URL, kept for the next state (the merge depends only on the two URLs). */
    private final Map<URL, URL> merges;
    private final Map<URL, Provider> byReferUrl;

    private DirectoryState(URL consumerUrl, List<Provider> providers, int disabled, Map<URL, URL> merges) {
        this.consumerUrl = consumerUrl;
        this.providers = providers;
        this.disabled = disabled;
        this.merges = merges;
        Map<URL, Provider> index = Maps.newHashMapWithExpectedSize(providers.size());
        for (Provider provider : providers) {
            index.put(provider.referUrl(), provider);
        }
        this.byReferUrl = index;
    }

    /**
     * The state for {@code consumer} given the raw provider URLs and the rules.
     *
     * <p>{@code previous} (may be null) only saves work: a provider whose raw URL and applying
     * rules are equal to last time keeps its URL instances, so a change to one provider of
     * thousands costs little and unchanged providers compare equal by identity. The result is
     * the same as without it.
     *
     * @param referable whether a provider's protocol can be referred
     * @param problems  receives, once per state, each provider or rule left out and why
     */
    static DirectoryState compute(URL consumer, List<URL> rawProviders, OverrideRules rules,
                                  Predicate<URL> referable, Consumer<String> problems, DirectoryState previous) {
        Objects.requireNonNull(consumer, "consumer");
        ServiceKey key = ServiceKey.of(consumer);
        Map<URL, URL> merges = Maps.newHashMapWithExpectedSize(rawProviders.size());
        Set<URL> referUrls = Sets.newLinkedHashSetWithExpectedSize(rawProviders.size());
        for (URL raw : rawProviders) {
            if (Categories.isEmptyMarker(raw) || !key.matches(raw)) {
                continue;
            }
            if (!referable.test(raw)) {
                problems.accept("Provider left out: protocol " + raw.getProtocol() + " of " + raw
                        + " (expected: a Protocol extension of this consumer)");
                continue;
            }
            URL referUrl = previous == null ? null : previous.merges.get(raw);
            if (referUrl == null) {
                referUrl = merge(raw, consumer);
            }
            merges.put(raw, referUrl);
            referUrls.add(referUrl);
        }
        OverrideRules usable = rules.without(incompatible(consumer, referUrls, rules, problems));

        URL directoryUrl = usable.configureConsumer(consumer);
        if (previous != null && directoryUrl.equals(previous.consumerUrl)) {
            directoryUrl = previous.consumerUrl;
        }
        List<Provider> providers = new ArrayList<>(referUrls.size());
        int disabled = 0;
        for (URL referUrl : referUrls) {
            List<Configurator> applied = usable.applicableToProvider(referUrl, consumer);
            Provider last = previous == null ? null : previous.byReferUrl.get(referUrl);
            URL view = last != null && last.applied().equals(applied)
                    ? last.viewUrl()
                    : OverrideRules.configure(referUrl, applied);
            Boolean out = isDisabled(view, problems);
            if (out == null || out) {
                disabled++;
                continue;
            }
            providers.add(new Provider(referUrl, applied, view));
        }
        return new DirectoryState(directoryUrl, List.copyOf(providers), disabled, merges);
    }

    /** {@code raw} with the consumer's parameters on top, except {@link #PROVIDER_KEYS}. */
    static URL merge(URL raw, URL consumer) {
        Map<String, String> parameters = new LinkedHashMap<>(raw.getParameters());
        consumer.getParameters().forEach((k, v) -> {
            if (!PROVIDER_KEYS.contains(k)) {
                parameters.put(k, v);
            }
        });
        return raw.withParameters(parameters);
    }

    private static Set<Configurator> incompatible(URL consumer, Set<URL> providers, OverrideRules rules,
                                                  Consumer<String> problems) {
        Set<Configurator> dropped = new LinkedHashSet<>();
        for (Configurator rule : rules.getRules()) {
            String why = rule.appliesToConsumer(consumer) ? rule.incompatibilityWith(consumer) : null;
            URL target = consumer;
            if (why == null) {
                for (URL provider : providers) {
                    if (rule.appliesToProvider(provider, consumer)) {
                        why = rule.incompatibilityWith(provider);
                        if (why != null) {
                            target = provider;
                            break;
                        }
                    }
                }
            }
            if (why != null) {
                dropped.add(rule);
                problems.accept("Override rule left out: " + why + " for " + target + " in " + rule);
            }
        }
        return dropped;
    }

    /** Whether {@code view} is taken out; {@code null} (also out) when its flag is not true/false. */
    private static Boolean isDisabled(URL view, Consumer<String> problems) {
        try {
            if (view.hasParameter(DISABLED_KEY)) {
                return view.getParameter(DISABLED_KEY, false);
            }
            return !view.getParameter(Configurator.ENABLED_KEY, true);
        } catch (IllegalArgumentException e) {
            problems.accept("Provider left out: " + e.getMessage());
            return null;
        }
    }

    /** The consumer URL with the rules that apply to it. */
    URL consumerUrl() {
        return consumerUrl;
    }

    /** The providers to list, in registry order. */
    List<Provider> providers() {
        return providers;
    }

    /** How many providers of the service were left out as disabled. */
    int disabledCount() {
        return disabled;
    }
}
