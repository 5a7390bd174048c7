package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The override rules of one service, as read from its {@value Categories#CONFIGURATORS}
 * category: the valid, enabled rules sorted from general to specific (see {@link Configurator}).
 * Immutable and thread-safe.
 */
public final class OverrideRules {

    private static final OverrideRules NONE = new OverrideRules(List.of());

    private final List<Configurator> rules;

    private OverrideRules(List<Configurator> rules) {
        this.rules = rules;
    }

    /** No rules. */
    public static OverrideRules none() {
        return NONE;
    }

    /**
     * The rules written as {@code urls}. An {@code empty://} URL stands for no rule; a rule that
     * cannot be read (see {@link Configurator#of}) is passed to {@code problems} with the reason
     * and left out; a rule switched off ({@code enabled=false}) or with nothing to set is left
     * out silently. Duplicates count once. The others are never affected by a bad one.
     */
    public static OverrideRules parse(Collection<URL> urls, Consumer<String> problems) {
        Objects.requireNonNull(urls, "urls");
        Objects.requireNonNull(problems, "problems");
        Set<Configurator> parsed = new LinkedHashSet<>();
        for (URL url : urls) {
            if (Categories.isEmptyMarker(url)) {
                continue;
            }
            Configurator rule;
            try {
                rule = Configurator.of(url);
            } catch (IllegalArgumentException e) {
                problems.accept("Override rule left out: " + e.getMessage());
                continue;
            }
            if (rule.isEnabled() && rule.hasParameters()) {
                parsed.add(rule);
            }
        }
        if (parsed.isEmpty()) {
            return NONE;
        }
        List<Configurator> sorted = new ArrayList<>(parsed);
        sorted.sort(null);
        return new OverrideRules(List.copyOf(sorted));
    }

    /**
     * Why a consumer of {@code director} leaves {@code rule} out for one of the values it sets, or
     * null when it applies them: a value a consumer filter rejects ({@code actives=-1}), or a
     * {@code timeout}, {@code weight}, {@code warmup} or {@code timestamp} that is not a number
     * its reader accepts. The values the cluster strategies and the mock wrapper read are checked
     * when they check a state (rpc-bootstrap's {@code RuleCheck} runs those too).
     */
    public static String valueProblem(Configurator rule, ExtensionDirector director) {
        Objects.requireNonNull(rule, "rule");
        Objects.requireNonNull(director, "director");
        try {
            FilterChain.checkKeys(rule.getUrl(), FilterChain.CONSUMER, director);
        } catch (IllegalArgumentException e) {
            return e.getMessage();
        }
        String badValue = RuleValues.problem(rule.getParameters());
        return badValue == null ? null : badValue + " in " + rule.getUrl();
    }

    /** The rules in the order they are applied (the last one that applies wins). */
    public List<Configurator> getRules() {
        return rules;
    }

    public boolean isEmpty() {
        return rules.isEmpty();
    }

    /** {@code consumer} with every rule that applies to it applied, in order. */
    public URL configureConsumer(URL consumer) {
        URL result = consumer;
        for (Configurator rule : rules) {
            if (rule.appliesToConsumer(consumer)) {
                result = rule.configure(result);
            }
        }
        return result;
    }

    /** {@code provider} (as {@code consumer} sees it) with every rule that applies to it applied, in order. */
    public URL configureProvider(URL provider, URL consumer) {
        return configure(provider, applicableToProvider(provider, consumer));
    }

    /**
     * The providers a {@link RegistryDirectory} of {@code consumer} lists from {@code rawProviders}
     * with these rules, as it lists them (computed by the directory's own code): those of the
     * consumer's service key, with the consumer's parameters merged in and the rules that apply
     * applied, without the ones a rule or their URL disables; every protocol taken as referable.
     * For tools that show what a rule does to consumers (rpc-admin).
     */
    public List<URL> providersAsSeenBy(URL consumer, List<URL> rawProviders) {
        Objects.requireNonNull(consumer, "consumer");
        Objects.requireNonNull(rawProviders, "rawProviders");
        return DirectoryState.compute(consumer, List.copyOf(rawProviders), this, url -> true, problem -> { }, null)
                .providers().stream().map(DirectoryState.Provider::viewUrl).toList();
    }

    /** The rules that apply to {@code provider} as {@code consumer} sees it, in the order they are applied. */
    List<Configurator> applicableToProvider(URL provider, URL consumer) {
        List<Configurator> applicable = null;
        for (Configurator rule : rules) {
            if (rule.appliesToProvider(provider, consumer)) {
                if (applicable == null) {
                    applicable = new ArrayList<>(2);
                }
                applicable.add(rule);
            }
        }
        return applicable == null ? List.of() : applicable;
    }

    /** {@code target} with {@code applied} applied in order. */
    static URL configure(URL target, List<Configurator> applied) {
        URL result = target;
        for (Configurator rule : applied) {
            result = rule.configure(result);
        }
        return result;
    }

    /** These rules without {@code dropped}. */
    OverrideRules without(Set<Configurator> dropped) {
        if (dropped.isEmpty()) {
            return this;
        }
        List<Configurator> kept = new ArrayList<>(rules);
        kept.removeAll(dropped);
        return kept.isEmpty() ? NONE : new OverrideRules(List.copyOf(kept));
    }

    /** Equal when they hold equal rules (rules are equal when written alike) in the same order. */
    @Override
    public boolean equals(Object o) {
        return o instanceof OverrideRules other && rules.equals(other.rules);
    }

    @Override
    public int hashCode() {
        return rules.hashCode();
    }

    @Override
    public String toString() {
        return rules.toString();
    }
}
