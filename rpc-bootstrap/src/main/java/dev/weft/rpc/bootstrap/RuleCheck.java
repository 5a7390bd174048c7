package dev.weft.rpc.bootstrap;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.cluster.StaticDirectory;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.Configurator;
import dev.weft.rpc.registry.OverrideRules;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The checks a consumer makes on an override rule, for tools that write rules ({@code rpc-admin}):
 * what {@code refer} warns about (a key no module on the class path reads, with the closest known
 * one) and what a consumer would leave the rule out for (a rule it cannot read, a value a filter,
 * a protocol, a balancer, a cluster strategy or the mock wrapper refuses). The values are checked
 * by the consumer's own code: the rule's parameters are put on a consumer URL and joined with the
 * {@link Cluster} of {@code director}, as a consumer's state is checked. A method-level key
 * ({@code find.retries}) is also checked in its service-level form, since the two are read alike.
 *
 * <p>Immutable and thread-safe.
 */
public final class RuleCheck {

    /** The service every rule is tried on: no methods, so only what a rule sets is checked. */
    private interface AnyService {
    }

    private final ExtensionDirector director;
    private final KnownKeys knownKeys;

    private RuleCheck(ExtensionDirector director) {
        this.director = director;
        this.knownKeys = KnownKeys.load(director.getClassLoader());
    }

    /** The checks of the consumers that the modules on {@code director}'s class path make. */
    public static RuleCheck of(ExtensionDirector director) {
        return new RuleCheck(Objects.requireNonNull(director, "director"));
    }

    /**
     * {@link #problems(URL)} with the modules {@code loader} sees, in an extension director of its
     * own that is closed before this returns.
     */
    public static List<String> problems(URL rule, ClassLoader loader) {
        Objects.requireNonNull(loader, "loader");
        try (ExtensionDirector own = new ExtensionDirector(loader)) {
            return of(own).problems(rule);
        }
    }

    /**
     * Every reason a consumer would refuse {@code rule} or warn about it, one line each, such as
     * {@code unknown key whoami.mokc (did you mean 'whoami.mock'?)} or
     * {@code retries: many (expected: an integer)}; empty when a consumer applies it as written.
     */
    public List<String> problems(URL rule) {
        Objects.requireNonNull(rule, "rule");
        Configurator configurator;
        try {
            configurator = Configurator.of(rule);
        } catch (IllegalArgumentException e) {
            return List.of(e.getMessage());
        }
        List<String> problems = new ArrayList<>();
        if (!configurator.hasParameters()) {
            problems.add("override rule: sets nothing (expected: one or more key=value) in " + rule);
        }
        URL probe = URL.valueOf("consumer://" + Configurator.ANY_HOST + "/" + AnyService.class.getName())
                .addParameters(configurator.getParameters());
        for (String unknown : knownKeys.unknownParameters(probe)) {
            problems.add("unknown key " + unknown + "; no module on the class path reads it");
        }
        String value = OverrideRules.valueProblem(configurator, director);
        if (value != null) {
            problems.add(value);
        }
        if (problems.isEmpty()) {
            for (Map<String, String> form : serviceLevelForms(configurator.getParameters())) {
                String refusal = clusterRefusal(probe.withParameters(form));
                if (refusal != null) {
                    problems.add(refusal);
                    break;
                }
            }
        }
        return problems;
    }

    /**
     * The rule's parameters as service-level keys, which the readers check alike: the service-wide
     * ones, then for each method named, those with that method's keys in their service-level form
     * ({@code find.retries=4} as {@code retries=4}).
     */
    private static List<Map<String, String>> serviceLevelForms(Map<String, String> parameters) {
        Map<String, String> serviceWide = new LinkedHashMap<>();
        Map<String, Map<String, String>> byMethod = new LinkedHashMap<>();
        parameters.forEach((key, value) -> {
            int dot = key.indexOf('.');
            if (dot > 0) {
                byMethod.computeIfAbsent(key.substring(0, dot), m -> new LinkedHashMap<>()).put(key.substring(dot + 1), value);
            } else {
                serviceWide.put(key, value);
            }
        });
        List<Map<String, String>> forms = new ArrayList<>();
        forms.add(serviceWide);
        byMethod.values().forEach(keys -> {
            Map<String, String> form = new LinkedHashMap<>(serviceWide);
            form.putAll(keys);
            forms.add(form);
        });
        return forms;
    }

    /** What the cluster (and the mock wrapper, when on the class path) says about a consumer URL, or null when it accepts it. */
    private String clusterRefusal(URL consumer) {
        Invoker<AnyService> joined;
        try {
            joined = director.getExtensionLoader(Cluster.class).getAdaptiveExtension()
                    .join(new StaticDirectory<>(AnyService.class, consumer, List.of()));
        } catch (RuntimeException e) {
            return String.valueOf(e.getMessage());
        }
        joined.destroy();
        return null;
    }
}
