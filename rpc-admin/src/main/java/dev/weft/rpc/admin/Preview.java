package dev.weft.rpc.admin;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.ConditionRule;
import dev.weft.rpc.registry.Configurator;
import dev.weft.rpc.registry.OverrideRules;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedSet;

/**
 * What a rule does to the consumers and providers of a service, as text: which consumers and
 * providers an override rule applies to and what changes for each, which calls a condition rule
 * routes and to how many providers, and which methods a rule affects. Computed with the consumers'
 * own code ({@link Configurator}, {@link ConditionRule}, the directory's view of the providers,
 * {@link OverrideRules#providersAsSeenBy}) over what the registry holds now. Stateless.
 */
final class Preview {

    private Preview() {
    }

    /**
     * Prints what {@code rule} (an override rule) changes, on top of the rules the registry already
     * holds, and the methods it changes.
     */
    static void override(ServiceSnapshot snapshot, Configurator rule, ServiceMethods methods, PrintStream out) {
        OverrideRules existing = OverrideRules.parse(snapshot.overrides(), problem -> { });
        List<String> consumerLines = new ArrayList<>();
        Map<String, String> providerLines = new LinkedHashMap<>();
        for (URL consumer : snapshot.consumersOrAny()) {
            if (rule.appliesToConsumer(consumer)) {
                consumerLines.add("  " + consumerName(consumer) + ": " + changes(existing.configureConsumer(consumer), rule));
            }
            for (URL provider : snapshot.providersAsSeenBy(consumer, existing)) {
                if (rule.appliesToProvider(provider, consumer)) {
                    providerLines.putIfAbsent(provider.getAddress(), "  " + provider.getAddress() + ": " + changes(provider, rule));
                }
            }
        }
        if (snapshot.consumers().isEmpty()) {
            out.println("consumers it applies to: none registered now (it applies to those that come and match)");
        } else {
            out.println("consumers it applies to: " + consumerLines.size() + " of " + snapshot.consumers().size());
            consumerLines.forEach(out::println);
        }
        out.println("providers it applies to (as those consumers see them): " + providerLines.size() + " of "
                + snapshot.providers().size());
        providerLines.values().forEach(out::println);
        out.println(methods.describe());
        out.println("methods it changes: " + methods.affected(rule));
    }

    /** Prints which calls {@code rule} (a condition rule) routes (which methods) and where they go, per consumer. */
    static void route(ServiceSnapshot snapshot, ConditionRule rule, ServiceMethods methods, PrintStream out) {
        OverrideRules overrides = OverrideRules.parse(snapshot.overrides(), problem -> { });
        int routed = 0;
        List<String> lines = new ArrayList<>();
        for (URL consumer : snapshot.consumersOrAny()) {
            URL configured = overrides.configureConsumer(consumer);
            SortedSet<String> routedMethods = methods.routed(rule, configured);
            if (!rule.routesSomeCallOf(configured) || (routedMethods != null && routedMethods.isEmpty())) {
                continue;
            }
            routed++;
            List<URL> providers = snapshot.providersAsSeenBy(consumer, overrides);
            List<String> selected = providers.stream().filter(rule::selects).map(URL::getAddress).toList();
            lines.add("  " + consumerName(consumer) + ": calls it routes go to " + selected.size() + " of " + providers.size()
                    + " providers" + (selected.isEmpty() ? "" : " " + selected) + outcome(rule, selected.size(), providers.size()));
            lines.add("    methods it routes: " + (routedMethods == null ? "those its 'when' names (methods not listed)"
                    : String.join(", ", routedMethods)));
        }
        out.println(snapshot.consumers().isEmpty() ? "consumers whose calls it routes: none registered now; any consumer would see:"
                : "consumers whose calls it routes: " + routed + " of " + snapshot.consumers().size());
        lines.forEach(out::println);
        out.println(methods.describe());
    }

    /**
     * One line per rule the registry holds for the service, with whom it applies to (an override
     * rule) or how many providers it leaves of those each consumer lists, override rules applied
     * (a condition rule), and the methods it names that the service does not have.
     */
    static void rules(ServiceSnapshot snapshot, ServiceMethods methods, PrintStream out) {
        OverrideRules overrides = OverrideRules.parse(snapshot.overrides(), problem -> { });
        out.println("override rules: " + snapshot.overrides().size());
        for (URL url : snapshot.overrides()) {
            String what;
            try {
                Configurator rule = Configurator.of(url);
                long consumers = snapshot.consumers().stream().filter(rule::appliesToConsumer).count();
                what = rule.getParameters() + (rule.isEnabled() ? "" : " (enabled=false)") + ", applies to " + consumers
                        + " of " + snapshot.consumers().size() + " consumers" + unknownMethods(methods.problems(rule));
            } catch (IllegalArgumentException e) {
                what = "REFUSED by consumers: " + e.getMessage();
            }
            out.println("  " + ConditionRule.id(url) + "  " + url.getAddress() + " " + what);
        }
        out.println("condition rules: " + snapshot.routers().size());
        for (URL url : snapshot.routers()) {
            String what;
            try {
                ConditionRule rule = ConditionRule.of(url);
                what = "'" + rule.getRule() + "' force=" + rule.isForce() + " priority=" + rule.getPriority()
                        + (rule.isEnabled() ? "" : " (enabled=false)") + ", " + leaves(snapshot, overrides, rule)
                        + unknownMethods(methods.problems(rule));
            } catch (IllegalArgumentException e) {
                what = "REFUSED by consumers: " + e.getMessage();
            }
            out.println("  " + ConditionRule.id(url) + "  " + what);
        }
    }

    /**
     * {@code leaves N of M providers}: of the providers a consumer lists (its directory's view, override
     * rules applied), those {@code rule} selects; per consumer when they differ.
     */
    private static String leaves(ServiceSnapshot snapshot, OverrideRules overrides, ConditionRule rule) {
        Map<List<Integer>, List<String>> consumersByCount = new LinkedHashMap<>();
        for (URL consumer : snapshot.consumersOrAny()) {
            List<URL> providers = snapshot.providersAsSeenBy(consumer, overrides);
            int left = (int) providers.stream().filter(rule::selects).count();
            consumersByCount.computeIfAbsent(List.of(left, providers.size()), count -> new ArrayList<>()).add(consumerName(consumer));
        }
        List<String> parts = new ArrayList<>();
        consumersByCount.forEach((count, consumers) -> parts.add(count.get(0) + " of " + count.get(1) + " providers"
                + (consumersByCount.size() == 1 ? "" : " for " + String.join(", ", consumers))
                + outcome(rule, count.get(0), count.get(1))));
        return "leaves " + String.join("; ", parts);
    }

    private static String unknownMethods(List<String> problems) {
        return problems.isEmpty() ? "" : "; NAMES NO METHOD OF THE SERVICE: " + String.join("; ", problems);
    }

    private static String outcome(ConditionRule rule, int selected, int of) {
        if (selected > 0 || of == 0) {
            return "";
        }
        return rule.isForce() ? " -> those calls FAIL with 'no provider' (force=true)"
                : " -> the rule is skipped for those calls (force=false)";
    }

    /** {@code key: old -> new} for each key {@code rule} sets on {@code target}, or {@code no change}. */
    private static String changes(URL target, Configurator rule) {
        List<String> changes = new ArrayList<>();
        rule.getParameters().forEach((key, value) -> {
            String old = target.getParameter(key);
            if (!Objects.equals(old, value)) {
                changes.add(key + ": " + (old == null ? "(none)" : old) + " -> " + value);
            }
        });
        return changes.isEmpty() ? "no change" : String.join(", ", changes);
    }

    private static String consumerName(URL consumer) {
        String application = consumer.getParameter(Configurator.APPLICATION_KEY);
        return consumer.getHost() + (application == null ? "" : " application=" + application);
    }
}
