package dev.weft.rpc.registry;

import com.google.common.collect.Maps;
import com.google.common.collect.Sets;
import dev.weft.rpc.protocol.FilterChain;
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
 *
 * <p><b>Cost of a change.</b> What one raw provider URL comes to (its refer URL, view URL, or why it
 * is left out) depends only on that URL, the consumer URL and the rules. So when the consumer URL
 * and the rules are those of the previous state, a provider joining or leaving costs the work for
 * that provider alone: the others keep what the previous state found for them, which is what
 * computing them again would give. A change of the rules (or a previous state that left a rule
 * out) computes every provider again.
 */
final class DirectoryState {

    /** Provider and override key: {@code true} takes the provider out of every consumer's list (default {@code false}). */
    static final String DISABLED_KEY = "disabled";

    /**
     * Keys a consumer URL never overrides on a provider URL: they describe the provider instance
     * ({@code weight}, {@code warmup} and {@code timestamp} are rpc-loadbalance's keys; {@code tag} is
     * the provider's routing tag, which a consumer never gives it; {@code methods} lists the provider's).
     */
    static final Set<String> PROVIDER_KEYS = Set.of(ServiceKey.GROUP_KEY, ServiceKey.VERSION_KEY,
            Categories.CATEGORY_KEY, MemoryRegistry.DYNAMIC_KEY, Configurator.ENABLED_KEY, DISABLED_KEY,
            "weight", "warmup", "timestamp", RuleRouter.TAG_KEY, ProviderMethods.METHODS_KEY);

    /** One provider: what to refer, the rules that apply to it, and how the consumer sees it. */
    record Provider(URL referUrl, List<Configurator> applied, URL viewUrl) {
    }

    /**
     * What one raw provider URL comes to: listed ({@code provider}), left out as disabled
     * ({@code referUrl} set, no {@code provider}), or left out before referring (neither). A
     * {@code problem} is reported with every state that holds the raw URL.
     */
    private record Outcome(URL referUrl, Provider provider, String problem) {
        static final Outcome OTHER_SERVICE = new Outcome(null, null, null);
    }

    /** The consumer URL as written, and the rules, that the outcomes were found for. */
    private final URL consumer;
    private final OverrideRules rules;
    /** Whether a rule was left out as incompatible with a target (then the next state computes all). */
    private final boolean rulesLeftOut;
    private final URL consumerUrl;
    private final List<Provider> providers;
    private final int disabled;
    private final Map<URL, Outcome> outcomes;

    private DirectoryState(URL consumer, OverrideRules rules, boolean rulesLeftOut, URL consumerUrl,
                           List<URL> rawProviders, List<Outcome> outcomes, Consumer<String> problems) {
        this.consumer = consumer;
        this.rules = rules;
        this.rulesLeftOut = rulesLeftOut;
        this.consumerUrl = consumerUrl;
        Map<URL, Outcome> byRaw = Maps.newHashMapWithExpectedSize(outcomes.size());
        Set<URL> listed = Sets.newHashSetWithExpectedSize(outcomes.size());
        List<Provider> list = new ArrayList<>(outcomes.size());
        int out = 0;
        for (int i = 0; i < outcomes.size(); i++) {
            Outcome outcome = outcomes.get(i);
            byRaw.put(rawProviders.get(i), outcome);
            if (outcome.referUrl() != null && !listed.add(outcome.referUrl())) {
                continue; // a second raw URL with the same refer URL: listed once
            }
            if (outcome.problem() != null) {
                problems.accept(outcome.problem());
            }
            if (outcome.provider() != null) {
                list.add(outcome.provider());
            } else if (outcome.referUrl() != null) {
                out++;
            }
        }
        this.providers = List.copyOf(list);
        this.disabled = out;
        this.outcomes = byRaw;
    }

    /**
     * The state for {@code consumer} given the raw provider URLs and the rules.
     *
     * <p>{@code previous} (may be null) only saves work: a provider whose raw URL, consumer URL
     * and rules are those of the previous state keeps what that state found for it (the same
     * instances, so unchanged providers compare equal by identity), and a change to one provider
     * of thousands costs the work for that one. The result is the same as without it.
     *
     * @param referable whether a provider's protocol can be referred
     * @param problems  receives, once per state, each provider or rule left out and why
     */
    static DirectoryState compute(URL consumer, List<URL> rawProviders, OverrideRules rules,
                                  Predicate<URL> referable, Consumer<String> problems, DirectoryState previous) {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(rules, "rules");
        boolean sameConsumer = previous != null && previous.consumer.equals(consumer);
        if (sameConsumer && !previous.rulesLeftOut && previous.rules.equals(rules)) {
            List<Outcome> patched = patch(previous, rawProviders, referable);
            if (patched != null) {
                return new DirectoryState(previous.consumer, previous.rules, false, previous.consumerUrl,
                        rawProviders, patched, problems);
            }
        }
        return computeAll(consumer, rawProviders, rules, referable, problems, sameConsumer ? previous : null);
    }

    /**
     * The outcomes of {@code rawProviders} under the previous state's consumer and rules: the
     * previous outcome for a raw URL it held, a new one for the others; null when a new provider
     * makes a rule incompatible (the rule is then left out of the whole state: compute all).
     */
    private static List<Outcome> patch(DirectoryState previous, List<URL> rawProviders, Predicate<URL> referable) {
        ServiceKey key = ServiceKey.of(previous.consumer);
        List<Outcome> outcomes = new ArrayList<>(rawProviders.size());
        for (URL raw : rawProviders) {
            Outcome outcome = previous.outcomes.get(raw);
            if (outcome == null) {
                outcome = prepare(raw, previous.consumer, key, referable, null);
                if (outcome.referUrl() != null) {
                    if (incompatibleRule(outcome.referUrl(), previous.consumer, previous.rules)) {
                        return null;
                    }
                    outcome = assess(outcome.referUrl(), previous.consumer, previous.rules, null);
                }
            }
            outcomes.add(outcome);
        }
        return outcomes;
    }

    /** Every outcome found afresh; {@code previous} (same consumer URL, may be null) lends refer URLs and views. */
    private static DirectoryState computeAll(URL consumer, List<URL> rawProviders, OverrideRules rules,
                                             Predicate<URL> referable, Consumer<String> problems,
                                             DirectoryState previous) {
        ServiceKey key = ServiceKey.of(consumer);
        List<Outcome> prepared = new ArrayList<>(rawProviders.size());
        Set<URL> referUrls = Sets.newLinkedHashSetWithExpectedSize(rawProviders.size());
        for (URL raw : rawProviders) {
            Outcome last = previous == null ? null : previous.outcomes.get(raw);
            Outcome outcome = prepare(raw, consumer, key, referable, last);
            prepared.add(outcome);
            if (outcome.referUrl() != null) {
                referUrls.add(outcome.referUrl());
            }
        }
        Set<Configurator> leftOut = incompatible(consumer, referUrls, rules, problems);
        OverrideRules usable = rules.without(leftOut);

        URL directoryUrl = usable.configureConsumer(consumer);
        if (previous != null && directoryUrl.equals(previous.consumerUrl)) {
            directoryUrl = previous.consumerUrl;
        }
        List<Outcome> outcomes = new ArrayList<>(prepared.size());
        for (int i = 0; i < prepared.size(); i++) {
            Outcome outcome = prepared.get(i);
            if (outcome.referUrl() != null) {
                Outcome last = previous == null ? null : previous.outcomes.get(rawProviders.get(i));
                outcome = assess(outcome.referUrl(), consumer, usable, last == null ? null : last.provider());
            }
            outcomes.add(outcome);
        }
        return new DirectoryState(consumer, rules, !leftOut.isEmpty(), directoryUrl, rawProviders, outcomes, problems);
    }

    /**
     * {@code raw} with its refer URL ({@code last}'s when it has one, the merge depends only on
     * the two URLs), or left out: another service key, an empty marker, a protocol the consumer
     * cannot refer.
     */
    private static Outcome prepare(URL raw, URL consumer, ServiceKey key, Predicate<URL> referable, Outcome last) {
        if (Categories.isEmptyMarker(raw) || !key.matches(raw)) {
            return Outcome.OTHER_SERVICE;
        }
        if (!referable.test(raw)) {
            return new Outcome(null, null, "Provider left out: protocol " + raw.getProtocol() + " of " + raw
                    + " (expected: a Protocol extension of this consumer)");
        }
        URL referUrl = last != null && last.referUrl() != null ? last.referUrl() : merge(raw, consumer);
        return new Outcome(referUrl, null, null);
    }

    /**
     * The provider {@code referUrl} with the rules that apply to it, or left out as disabled: its
     * view says {@value #DISABLED_KEY}{@code =true}, or has no {@value #DISABLED_KEY} and says
     * {@code enabled=false}, or has a flag that is not true/false. {@code last} (may be null)
     * lends its view when the same rules apply.
     */
    private static Outcome assess(URL referUrl, URL consumer, OverrideRules rules, Provider last) {
        List<Configurator> applied = rules.applicableToProvider(referUrl, consumer);
        if (last != null && last.referUrl().equals(referUrl) && last.applied().equals(applied)) {
            return new Outcome(referUrl, last, null);
        }
        URL view = OverrideRules.configure(referUrl, applied);
        boolean out;
        try {
            out = view.hasParameter(DISABLED_KEY) ? view.getParameter(DISABLED_KEY, false)
                    : !view.getParameter(Configurator.ENABLED_KEY, true);
        } catch (IllegalArgumentException e) {
            return new Outcome(referUrl, null, "Provider left out: " + e.getMessage());
        }
        return new Outcome(referUrl, out ? null : new Provider(referUrl, applied, view), null);
    }

    /** Whether a rule that applies to the provider {@code referUrl} would give it a value of the wrong kind. */
    private static boolean incompatibleRule(URL referUrl, URL consumer, OverrideRules rules) {
        for (Configurator rule : rules.getRules()) {
            if (rule.appliesToProvider(referUrl, consumer) && rule.incompatibilityWith(referUrl) != null) {
                return true;
            }
        }
        return false;
    }

    /**
     * {@code raw} without its {@code filter} key (the provider's own chain), with the consumer's
     * parameters on top, except {@link #PROVIDER_KEYS}.
     */
    static URL merge(URL raw, URL consumer) {
        Map<String, String> parameters = new LinkedHashMap<>(raw.getParameters());
        parameters.remove(FilterChain.FILTER_KEY);
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
