package dev.weft.rpc.admin;

import dev.weft.rpc.bootstrap.KnownKeys;
import dev.weft.rpc.common.NameSuggestions;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.ConditionRule;
import dev.weft.rpc.registry.Configurator;
import dev.weft.rpc.registry.ProviderMethods;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The methods of one service as its providers list them ({@link ProviderMethods}), and what rules
 * say about them: the method names a rule writes that the service does not have ("did you mean"),
 * and the methods a rule affects. When no provider lists its methods, nothing is checked and
 * every method is "every method". Immutable.
 */
final class ServiceMethods {

    private final String service;
    private final SortedSet<String> methods;
    private final KnownKeys keys;

    private ServiceMethods(String service, SortedSet<String> methods, KnownKeys keys) {
        this.service = service;
        this.methods = methods;
        this.keys = keys;
    }

    /** The methods the providers of {@code snapshot} list; keys are told apart from methods by {@code keys}. */
    static ServiceMethods of(ServiceSnapshot snapshot, KnownKeys keys) {
        return new ServiceMethods(snapshot.service(), ProviderMethods.listedBy(snapshot.providers()), keys);
    }

    /** Whether any provider lists its methods (else nothing can be checked). */
    boolean listed() {
        return !methods.isEmpty();
    }

    /** {@code methods of S (as its providers list them): a, b}, or why they are not checked. */
    String describe() {
        return listed() ? "methods of " + service + " (as its providers list them): " + String.join(", ", methods)
                : "methods of " + service + ": not checked (no provider lists them in its '" + ProviderMethods.METHODS_KEY + "' key)";
    }

    /** One line per method-level key of {@code rule} naming no method of the service, with the closest one. */
    List<String> problems(Configurator rule) {
        if (!listed()) {
            return List.of();
        }
        URL probe = URL.valueOf("override://" + Configurator.ANY_HOST + "/" + service).addParameters(rule.getParameters());
        return keys.unknownParameters(probe, service, methods).stream().map(line -> "method-level key " + line).toList();
    }

    /**
     * One line per method name of {@code rule}'s {@code when} that names no method of the service
     * (for a prefix {@code find*}: that no method starts with), with the closest one.
     */
    List<String> problems(ConditionRule rule) {
        List<String> problems = new ArrayList<>();
        if (!listed()) {
            return problems;
        }
        for (String named : rule.namedMethods()) {
            if (named.endsWith("*")) {
                String prefix = named.substring(0, named.length() - 1);
                if (methods.stream().noneMatch(m -> m.startsWith(prefix))) {
                    problems.add("method " + named + " (no method of " + service + " starts with '" + prefix + "'; methods: "
                            + methods + ")");
                }
            } else if (!methods.contains(named)) {
                String closest = NameSuggestions.closest(named, methods);
                problems.add("method " + named + " (no method " + named + " in " + service + "; "
                        + (closest == null ? "methods: " + methods : "did you mean '" + closest + "'?") + ")");
            }
        }
        return problems;
    }

    /**
     * The methods {@code rule} changes, each with the keys that change it:
     * {@code bye [timeout], greet [greet.mock, timeout]}; a service-wide key changes every method.
     */
    String affected(Configurator rule) {
        Map<String, List<String>> byMethod = new TreeMap<>();
        List<String> everyMethod = new ArrayList<>();
        for (String key : rule.getParameters().keySet()) {
            String method = keys.methodOf(key);
            if (method == null) {
                everyMethod.add(key);
            } else {
                byMethod.computeIfAbsent(method, m -> new ArrayList<>()).add(key);
            }
        }
        if (!listed()) {
            List<String> parts = new ArrayList<>();
            if (!everyMethod.isEmpty()) {
                parts.add("every method " + everyMethod);
            }
            byMethod.forEach((method, methodKeys) -> parts.add(method + " " + methodKeys));
            return String.join(", ", parts);
        }
        List<String> parts = new ArrayList<>();
        for (String method : methods) {
            List<String> changed = new ArrayList<>(byMethod.getOrDefault(method, List.of()));
            changed.addAll(everyMethod);
            if (!changed.isEmpty()) {
                parts.add(method + " " + changed);
            }
        }
        return parts.isEmpty() ? "none" : String.join(", ", parts);
    }

    /**
     * The methods whose calls by {@code consumer} (its URL with the override rules applied) {@code
     * rule} routes; null when the methods are not listed.
     */
    SortedSet<String> routed(ConditionRule rule, URL consumer) {
        if (!listed()) {
            return null;
        }
        SortedSet<String> routed = new TreeSet<>();
        for (String method : methods) {
            if (rule.routes(method, consumer)) {
                routed.add(method);
            }
        }
        return routed;
    }
}
