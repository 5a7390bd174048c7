package dev.weft.rpc.registry;

import com.google.common.base.Splitter;
import com.google.common.hash.Hashing;
import dev.weft.rpc.common.NameSuggestions;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ServiceKey;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * One condition routing rule, read from a {@code condition://} URL under a service's
 * {@value Categories#ROUTERS} category:
 * {@code condition://0.0.0.0/<interface>?category=routers&dynamic=false&rule=<encoded rule>}, with
 * optional {@value #FORCE_KEY} (default false), {@value #PRIORITY_KEY} (default 0) and
 * {@value #ENABLED_KEY} (default true). Immutable and thread-safe.
 *
 * <p><b>The rule</b> is {@code when => then}. {@code when} chooses the calls it routes:
 * {@value #METHOD_KEY}, and any key of the consumer URL ({@code application}, {@code host}...).
 * {@code then} chooses the providers those calls may use, by the keys of the provider URL as the
 * consumer sees it (with override rules applied), and {@code host}, {@code port}. Each side is
 * conditions joined with {@code &}: {@code key = v1,v2} (one of the values) or {@code key != v1,v2}
 * (none of them; an absent key matches); a value ending with {@code *} matches by prefix, and
 * {@code *} alone any value the key has. An empty {@code when} matches every call; an empty
 * {@code then} selects no provider. Example: {@code method = find => zone = eu}.
 *
 * <p><b>Routing.</b> The rules of a service apply from the highest {@value #PRIORITY_KEY} down (ties
 * by the rule's text), each narrowing what the previous left. A rule that would leave a call no
 * provider is skipped for that call, unless {@value #FORCE_KEY}{@code =true}: then the call fails
 * with "no provider", naming the rule.
 */
public final class ConditionRule {

    /** Rule protocol. */
    public static final String PROTOCOL = "condition";
    /** Router key: the rule, {@code when => then}. */
    public static final String RULE_KEY = "rule";
    /** Router key: {@code true} fails a call the rule leaves no provider (default {@code false}: the rule is skipped). */
    public static final String FORCE_KEY = "force";
    /** Router key: rules apply from the highest priority down (default 0). */
    public static final String PRIORITY_KEY = "priority";
    /** Router key: {@code false} switches the rule off (default {@code true}). */
    public static final String ENABLED_KEY = "enabled";
    /** Condition key in {@code when}: the called method. */
    public static final String METHOD_KEY = "method";
    /** Condition keys in {@code then}: the provider's address. */
    public static final String HOST_KEY = "host";
    public static final String PORT_KEY = "port";

    private static final String ARROW = "=>";
    private static final Set<String> RULE_URL_KEYS = Set.of(Categories.CATEGORY_KEY, MemoryRegistry.DYNAMIC_KEY, RULE_KEY,
            FORCE_KEY, PRIORITY_KEY, ENABLED_KEY, ServiceKey.GROUP_KEY, ServiceKey.VERSION_KEY, "interface");
    private static final Pattern KEY = Pattern.compile("[A-Za-z0-9._\\-]+");

    /** Highest priority first, then by the rule's text: the order never depends on arrival. */
    static final Comparator<ConditionRule> ORDER = Comparator.comparingInt((ConditionRule r) -> -r.priority)
            .thenComparing(r -> r.text);

    private final URL url;
    private final String text;
    private final boolean force;
    private final int priority;
    private final boolean enabled;
    private final List<Condition> when;
    private final List<Condition> then;

    private ConditionRule(URL url, String text, List<Condition> when, List<Condition> then) {
        this.url = url;
        this.text = text;
        this.force = url.getParameter(FORCE_KEY, false);
        this.priority = url.getParameter(PRIORITY_KEY, 0);
        this.enabled = url.getParameter(ENABLED_KEY, true);
        this.when = when;
        this.then = then;
    }

    /**
     * The rule written as {@code url}.
     *
     * @throws IllegalArgumentException naming the key or the part of the rule, its value and what is
     *         expected, when the URL is not a condition rule, a key is unknown (with the closest known
     *         one), a flag is not true/false, the priority not an integer, or the rule not
     *         {@code when => then} with well-formed conditions
     */
    public static ConditionRule of(URL url) {
        Objects.requireNonNull(url, "url");
        if (!PROTOCOL.equals(url.getProtocol())) {
            throw new IllegalArgumentException("routing rule protocol: " + url.getProtocol() + " (expected: " + PROTOCOL
                    + ") in " + url);
        }
        if (url.getHost() == null || url.getHost().isEmpty()) {
            throw new IllegalArgumentException("routing rule host: none (expected: " + Configurator.ANY_HOST + ") in " + url);
        }
        for (String key : url.getParameters().keySet()) {
            if (!RULE_URL_KEYS.contains(key)) {
                String closest = NameSuggestions.closest(key, RULE_URL_KEYS);
                throw new IllegalArgumentException("routing rule key: " + key + " (expected: one of " + new TreeSet<>(RULE_URL_KEYS)
                        + (closest == null ? "" : "; did you mean '" + closest + "'?") + ") in " + url);
            }
        }
        String text = url.getParameter(RULE_KEY);
        if (text == null || text.isBlank()) {
            throw new IllegalArgumentException("routing rule " + RULE_KEY + ": none (expected: when => then, such as"
                    + " 'method = find => zone = eu') in " + url);
        }
        try {
            url.getParameter(FORCE_KEY, false);
            url.getParameter(ENABLED_KEY, true);
            url.getParameter(PRIORITY_KEY, 0);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("routing rule " + e.getMessage() + " in " + url, e);
        }
        int arrow = text.indexOf(ARROW);
        if (arrow < 0 || text.indexOf(ARROW, arrow + ARROW.length()) >= 0) {
            throw new IllegalArgumentException("routing rule: '" + text + "' (expected: one '=>' between when and then, such as"
                    + " 'method = find => zone = eu') in " + url);
        }
        String whenText = text.substring(0, arrow).strip();
        String thenText = text.substring(arrow + ARROW.length()).strip();
        List<Condition> when = conditions(whenText, "when", url);
        List<Condition> then = conditions(thenText, "then", url);
        for (Condition condition : then) {
            if (condition.key.equals(METHOD_KEY)) {
                throw new IllegalArgumentException("routing rule then: '" + thenText + "' (expected: provider keys, host"
                        + " and port; 'method' belongs in when) in " + url);
            }
        }
        String spaced = (whenText.isEmpty() ? "" : whenText + " ") + ARROW + (thenText.isEmpty() ? "" : " " + thenText);
        return new ConditionRule(url, spaced, when, then);
    }

    private static List<Condition> conditions(String side, String name, URL url) {
        List<Condition> conditions = new ArrayList<>();
        if (side.isEmpty()) {
            return List.of();
        }
        for (String part : Splitter.on('&').trimResults().split(side)) {
            int ne = part.indexOf("!=");
            int eq = part.indexOf('=');
            boolean negated = ne >= 0 && ne < eq + 1;
            int split = negated ? ne : eq;
            if (split <= 0) {
                throw new IllegalArgumentException("routing rule " + name + " condition: '" + part + "' (expected: key = v1,v2"
                        + " or key != v, joined with &) in " + url);
            }
            String key = part.substring(0, split).strip();
            String values = part.substring(split + (negated ? 2 : 1)).strip();
            if (!KEY.matcher(key).matches()) {
                throw new IllegalArgumentException("routing rule " + name + " key: '" + key + "' in '" + part
                        + "' (expected: letters, digits, '.', '-' or '_') in " + url);
            }
            List<String> list = Splitter.on(',').trimResults().splitToList(values);
            if (values.isEmpty() || list.contains("") || list.stream().anyMatch(v -> v.contains("=") || v.contains(" "))) {
                throw new IllegalArgumentException("routing rule " + name + " values: '" + values + "' in '" + part
                        + "' (expected: v1,v2 with no spaces; a value may end with *) in " + url);
            }
            // host and port are read from the address: the constants themselves, so selects() compares identities
            String interned = key.equals(HOST_KEY) ? HOST_KEY : key.equals(PORT_KEY) ? PORT_KEY : key;
            conditions.add(new Condition(interned, negated, List.copyOf(list)));
        }
        return List.copyOf(conditions);
    }

    /**
     * A short, stable id of the rule: the first 8 hex digits of the SHA-256 of its URL with sorted
     * parameters (what its node is named after), so an operator names a rule without its URL.
     */
    public String id() {
        return id(url);
    }

    /** The id of the rule written as {@code url} (see {@link #id()}). */
    public static String id(URL url) {
        String canonical = url.withParameters(new TreeMap<>(url.getParameters())).toFullString();
        return Hashing.sha256().hashString(canonical, StandardCharsets.UTF_8).toString().substring(0, 8);
    }

    /** The rule as written. */
    public URL getUrl() {
        return url;
    }

    /** The rule, spaced as {@code when => then} ({@code => then} and {@code when =>} when a side is empty). */
    public String getRule() {
        return text;
    }

    public boolean isForce() {
        return force;
    }

    public int getPriority() {
        return priority;
    }

    public boolean isEnabled() {
        return enabled;
    }

    /** Whether the rule routes the calls of {@code method} (null: none) made by {@code consumer}. */
    public boolean routes(String method, URL consumer) {
        for (Condition condition : when) {
            String value = condition.key.equals(METHOD_KEY) ? method
                    : condition.key.equals(HOST_KEY) ? consumer.getHost() : consumer.getParameter(condition.key);
            if (!condition.test(value)) {
                return false;
            }
        }
        return true;
    }

    /**
     * Whether the rule routes some call of {@code consumer}: its {@code when} conditions other than
     * {@value #METHOD_KEY} hold (for tools that preview a rule without knowing the methods).
     */
    public boolean routesSomeCallOf(URL consumer) {
        for (Condition condition : when) {
            if (!condition.key.equals(METHOD_KEY)
                    && !condition.test(condition.key.equals(HOST_KEY) ? consumer.getHost() : consumer.getParameter(condition.key))) {
                return false;
            }
        }
        return true;
    }

    /**
     * The method names the rule's {@code when} conditions on {@value #METHOD_KEY} write, as written
     * ({@code find}, {@code list*}, {@code *}), for tools that check them against the service's
     * methods; empty when {@code when} says nothing about the method.
     */
    public Set<String> namedMethods() {
        Set<String> named = new TreeSet<>();
        for (Condition condition : when) {
            if (condition.key.equals(METHOD_KEY)) {
                named.addAll(condition.values);
            }
        }
        return named;
    }

    /** Whether {@code provider} (its URL as the consumer sees it) is one of those the rule selects. */
    public boolean selects(URL provider) {
        if (then.isEmpty()) {
            return false;
        }
        for (Condition condition : then) {
            String value = condition.key == HOST_KEY ? provider.getHost()
                    : condition.key == PORT_KEY ? Integer.toString(provider.getPort()) : provider.getParameter(condition.key);
            if (!condition.test(value)) {
                return false;
            }
        }
        return true;
    }

    /** {@code rule [id] 'when => then'}, as messages name it. */
    public String describe() {
        return "condition rule " + id() + " '" + text + "'" + (force ? " (force=true)" : "");
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof ConditionRule other && url.equals(other.url);
    }

    @Override
    public int hashCode() {
        return url.hashCode();
    }

    @Override
    public String toString() {
        return describe();
    }

    /**
     * {@code key = values} or {@code key != values}, compiled: exact values in a set, prefixes
     * ({@code eu*}) in a list, {@code *} as "any value".
     */
    private static final class Condition {
        final String key;
        final boolean negated;
        /** The values as written. */
        final List<String> values;
        private final Set<String> exact;
        private final String[] prefixes;
        private final boolean any;

        Condition(String key, boolean negated, List<String> values) {
            this.key = key;
            this.negated = negated;
            this.values = values;
            this.exact = values.stream().filter(v -> !v.endsWith("*")).collect(Collectors.toUnmodifiableSet());
            this.prefixes = values.stream().filter(v -> v.endsWith("*") && v.length() > 1)
                    .map(v -> v.substring(0, v.length() - 1)).toArray(String[]::new);
            this.any = values.contains("*");
        }

        /** Whether {@code actual} (null: the key is absent) meets the condition. */
        boolean test(String actual) {
            if (actual == null) {
                return negated;
            }
            boolean hit = any || exact.contains(actual);
            for (int i = 0; !hit && i < prefixes.length; i++) {
                hit = actual.startsWith(prefixes[i]);
            }
            return negated != hit;
        }
    }
}
