package dev.weft.rpc.registry;

import dev.weft.rpc.protocol.ServiceKey;
import dev.weft.rpc.common.URL;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One override rule, read from an {@code override://} (or {@code absent://}) URL, as an operator
 * writes it under a service's {@value Categories#CONFIGURATORS} category. Immutable and
 * thread-safe.
 *
 * <p><b>Which URLs a rule applies to</b> (on a consumer; {@link RegistryDirectory} calls it for
 * the consumer URL and for each provider's URL):
 * <ul>
 *   <li>A rule with a port ({@code override://10.0.0.7:20880/...}) targets provider instances:
 *       those with that port and that host ({@code 0.0.0.0}: any host). It never applies to the
 *       consumer URL.</li>
 *   <li>A rule without a port targets consumers: it applies (to the consumer URL and to every
 *       provider as this consumer sees it) when its host is {@code 0.0.0.0} or the consumer's own
 *       registered host.</li>
 *   <li>{@value #APPLICATION_KEY} (absent or {@code *}: any) must equal the consumer's
 *       application; {@value #SIDE_KEY} (absent or {@code *}: any) must be {@code consumer};
 *       every {@code ~key=value} condition must equal the target's {@code key}; the rule's
 *       interface, {@code group} and {@code version}, when given, must equal the consumer's.</li>
 *   <li>{@value #ENABLED_KEY}{@code =false} switches the rule off.</li>
 * </ul>
 *
 * <p><b>Precedence.</b> Rules are applied from the most general to the most specific, so the
 * specific one wins: first those without a port, then those with one; within each, {@code 0.0.0.0}
 * before a named host; then rules without {@code application} before those with one; then by
 * {@value #PRIORITY_KEY} ascending (a higher priority wins); ties are broken by the rule's text,
 * so the result never depends on the order rules arrived in.
 *
 * <p><b>What a rule does.</b> {@code override://} sets each of its parameters on the target
 * (method-level keys such as {@code sayHello.mock} included); {@code absent://} sets only those the
 * target lacks. The rule's own control keys ({@value Categories#CATEGORY_KEY}, {@code dynamic},
 * {@value #ENABLED_KEY}, {@value #PRIORITY_KEY}, {@value #APPLICATION_KEY}, {@value #SIDE_KEY},
 * {@code ~} conditions, {@code interface}, {@code group}, {@code version}, {@code check},
 * {@code anyhost}) are not copied. A rule left with no parameter to set does nothing.
 */
public final class Configurator implements Comparable<Configurator> {

    /** Rule protocol: set every parameter of the rule on the target. */
    public static final String OVERRIDE_PROTOCOL = "override";
    /** Rule protocol: set only the parameters the target does not have. */
    public static final String ABSENT_PROTOCOL = "absent";

    /** Override key: {@code false} switches the rule off (default {@code true}). */
    public static final String ENABLED_KEY = "enabled";
    /** Override key: precedence among equally specific rules; higher wins (default 0). */
    public static final String PRIORITY_KEY = "priority";
    /** URL key: the application name; on a rule, the consumer application it is for. */
    public static final String APPLICATION_KEY = "application";
    /** URL key: {@code consumer} or {@code provider}; on a rule, the side it is for. */
    public static final String SIDE_KEY = "side";
    /** The side this module applies rules on. */
    public static final String CONSUMER_SIDE = "consumer";
    /** The side of a rule a provider applies to itself ({@link #appliesToExportedProvider}). */
    public static final String PROVIDER_SIDE = "provider";

    /** A host that matches every host. */
    public static final String ANY_HOST = "0.0.0.0";
    /** A condition value that matches every value. */
    public static final String ANY_VALUE = "*";
    /** Prefix of a condition key: {@code ~key=value} requires the target's {@code key} to be {@code value}. */
    public static final String CONDITION_PREFIX = "~";

    private static final String INTERFACE_KEY = "interface";
    /**
     * Dubbo 2.7+ rule keys whose narrowing Weft does not implement. A rule carrying one is
     * refused rather than applied more widely than its author meant.
     */
    private static final List<String> UNSUPPORTED_KEYS = List.of("compatible_config", "configVersion", "providerAddresses");
    /** Keys that steer the rule and are never copied onto the target. */
    private static final Set<String> CONTROL_KEYS = Set.of(Categories.CATEGORY_KEY, "dynamic", "check", "anyhost",
            ENABLED_KEY, PRIORITY_KEY, APPLICATION_KEY, SIDE_KEY, INTERFACE_KEY, ServiceKey.GROUP_KEY,
            ServiceKey.VERSION_KEY);

    private static final Comparator<Configurator> ORDER = Comparator
            .comparing((Configurator c) -> c.port != 0)
            .thenComparing(c -> !c.anyHost)
            .thenComparing(c -> c.application != null)
            .thenComparingInt(c -> c.priority)
            .thenComparing(c -> c.rule.toFullString());

    private final URL rule;
    private final boolean absent;
    private final boolean anyHost;
    private final int port;
    private final String application;
    private final boolean enabled;
    private final int priority;
    private final Map<String, String> conditions;
    private final Map<String, String> parameters;

    private Configurator(URL rule) {
        this.rule = rule;
        this.absent = ABSENT_PROTOCOL.equals(rule.getProtocol());
        this.anyHost = ANY_HOST.equals(rule.getHost());
        this.port = rule.getPort();
        this.application = anyToNull(rule.getParameter(APPLICATION_KEY, rule.getUsername()));
        this.enabled = rule.getParameter(ENABLED_KEY, true);
        this.priority = rule.getParameter(PRIORITY_KEY, 0);
        Map<String, String> conds = new LinkedHashMap<>();
        Map<String, String> params = new LinkedHashMap<>();
        rule.getParameters().forEach((key, value) -> {
            if (key.startsWith(CONDITION_PREFIX)) {
                conds.put(key.substring(CONDITION_PREFIX.length()), value);
            } else if (!CONTROL_KEYS.contains(key)) {
                params.put(key, value);
            }
        });
        this.conditions = Map.copyOf(conds);
        this.parameters = Map.copyOf(params);
    }

    /**
     * The rule written as {@code rule}.
     *
     * @throws IllegalArgumentException when the rule cannot be applied as written: another
     *         protocol than {@code override}/{@code absent}, no host, a {@code priority} that is
     *         not an integer, an {@code enabled} or {@code disabled} that is not true/false, a
     *         Dubbo 2.7 key Weft does not implement; the message names the key, the value and the rule
     */
    public static Configurator of(URL rule) {
        Objects.requireNonNull(rule, "rule");
        String protocol = rule.getProtocol();
        if (!OVERRIDE_PROTOCOL.equals(protocol) && !ABSENT_PROTOCOL.equals(protocol)) {
            throw new IllegalArgumentException("override rule protocol: " + protocol + " (expected: "
                    + OVERRIDE_PROTOCOL + " or " + ABSENT_PROTOCOL + ") in " + rule);
        }
        if (rule.getHost() == null || rule.getHost().isEmpty()) {
            throw new IllegalArgumentException("override rule host: none (expected: " + ANY_HOST
                    + ", a consumer host, or a provider host:port) in " + rule);
        }
        for (String key : UNSUPPORTED_KEYS) {
            if (rule.hasParameter(key)) {
                throw new IllegalArgumentException("override rule key: " + key + " (expected: none of "
                        + UNSUPPORTED_KEYS + ", which Weft does not implement) in " + rule);
            }
        }
        rule.getParameter(ENABLED_KEY, true);
        rule.getParameter(PRIORITY_KEY, 0);
        rule.getParameter(DirectoryState.DISABLED_KEY, false);
        return new Configurator(rule);
    }

    /** The rule as written. */
    public URL getUrl() {
        return rule;
    }

    /** Whether the rule is switched on ({@value #ENABLED_KEY} is not {@code false}). */
    public boolean isEnabled() {
        return enabled;
    }

    /** Whether the rule sets anything (a rule with only control keys does nothing). */
    public boolean hasParameters() {
        return !parameters.isEmpty();
    }

    /** The parameters the rule sets, without its control keys. */
    public Map<String, String> getParameters() {
        return parameters;
    }

    /**
     * Whether the rule applies to the consumer URL {@code consumer} itself (the keys cluster
     * strategies and the mock read).
     */
    public boolean appliesToConsumer(URL consumer) {
        return enabled && port == 0 && forConsumer(consumer) && conditionsHold(consumer);
    }

    /**
     * Whether the rule applies to {@code provider}, a provider's URL as the consumer
     * {@code consumer} sees it.
     */
    public boolean appliesToProvider(URL provider, URL consumer) {
        if (!enabled) {
            return false;
        }
        boolean address = port == 0
                ? forConsumer(consumer)
                : port == provider.getPort() && (anyHost || rule.getHost().equals(provider.getHost()));
        return address && serviceMatches(consumer) && sideAndApplicationMatch(consumer) && conditionsHold(provider);
    }

    /**
     * Whether the rule applies on the provider that exports {@code provider} (its own URL, as
     * registered) to itself ({@link ProviderRules}): a rule with a port addresses providers with
     * that port and host ({@code 0.0.0.0}: any), unless it says {@code side=consumer}; a rule
     * without a port applies only when it says {@code side=provider}, to every provider
     * ({@code 0.0.0.0}) or those of its host. {@value #APPLICATION_KEY} (absent or {@code *}: any)
     * must equal the provider's application; the rule's interface, {@code group} and
     * {@code version}, when given, must equal the provider's; every {@code ~key=value} condition
     * must hold on the provider's URL.
     */
    public boolean appliesToExportedProvider(URL provider) {
        if (!enabled) {
            return false;
        }
        String side = anyToNull(rule.getParameter(SIDE_KEY));
        boolean addressed = port != 0 ? port == provider.getPort() && !CONSUMER_SIDE.equals(side) : PROVIDER_SIDE.equals(side);
        return addressed && (anyHost || rule.getHost().equals(provider.getHost())) && serviceMatches(provider)
                && (application == null || application.equals(provider.getParameter(APPLICATION_KEY))) && conditionsHold(provider);
    }

    private boolean forConsumer(URL consumer) {
        return (anyHost || rule.getHost().equals(consumer.getHost())) && serviceMatches(consumer)
                && sideAndApplicationMatch(consumer);
    }

    private boolean serviceMatches(URL consumer) {
        ServiceKey own = ServiceKey.of(consumer);
        String iface = anyToNull(rule.getParameter(INTERFACE_KEY, emptyToNull(rule.getPath())));
        String group = anyToNull(rule.getParameter(ServiceKey.GROUP_KEY));
        String version = anyToNull(rule.getParameter(ServiceKey.VERSION_KEY));
        return (iface == null || iface.equals(own.getInterfaceName()))
                && (group == null || group.equals(own.getGroup()))
                && (version == null || version.equals(own.getVersion()));
    }

    private boolean sideAndApplicationMatch(URL consumer) {
        String side = anyToNull(rule.getParameter(SIDE_KEY));
        return (side == null || side.equals(CONSUMER_SIDE))
                && (application == null || application.equals(consumer.getParameter(APPLICATION_KEY)));
    }

    private boolean conditionsHold(URL target) {
        for (Map.Entry<String, String> condition : conditions.entrySet()) {
            String wanted = condition.getValue();
            if (!ANY_VALUE.equals(wanted) && !wanted.equals(target.getParameter(condition.getKey()))) {
                return false;
            }
        }
        return true;
    }

    /** {@code target} with this rule's parameters set (all of them, or for {@code absent://} the missing ones). */
    public URL configure(URL target) {
        if (!absent) {
            return target.addParameters(parameters);
        }
        Map<String, String> missing = new LinkedHashMap<>();
        parameters.forEach((key, value) -> {
            if (!target.hasParameter(key)) {
                missing.put(key, value);
            }
        });
        return target.addParameters(missing);
    }

    /**
     * Why this rule must not be applied to {@code target}, or {@code null} when it may. A rule
     * may not change the kind of a value the target has: an integer stays an integer (a
     * non-negative one stays non-negative), so {@code weight=abc} or {@code weight=-5} cannot
     * take every provider out. For a method-level key ({@code sayHello.timeout}) the target's
     * value is the method's, else the service-wide one.
     */
    public String incompatibilityWith(URL target) {
        if (absent) {
            return null;
        }
        for (Map.Entry<String, String> entry : parameters.entrySet()) {
            String key = entry.getKey();
            String current = currentValue(target, key);
            Long currentNumber = parseLong(current);
            if (currentNumber == null) {
                continue;
            }
            Long wanted = parseLong(entry.getValue());
            if (wanted == null) {
                return key + ": " + entry.getValue() + " (expected: an integer, like the current value " + current + ")";
            }
            if (currentNumber >= 0 && wanted < 0) {
                return key + ": " + entry.getValue() + " (expected: >= 0, like the current value " + current + ")";
            }
        }
        return null;
    }

    private static String currentValue(URL target, String key) {
        String value = target.getParameter(key);
        int dot = key.lastIndexOf('.');
        if (value == null && dot > 0 && dot < key.length() - 1) {
            value = target.getParameter(key.substring(dot + 1));
        }
        return value;
    }

    private static Long parseLong(String value) {
        if (value == null || value.isEmpty()) {
            return null;
        }
        try {
            return Long.parseLong(value.trim());
        } catch (NumberFormatException e) {
            return null;
        }
    }

    private static String anyToNull(String value) {
        return value == null || value.isEmpty() || ANY_VALUE.equals(value) ? null : value;
    }

    private static String emptyToNull(String value) {
        return value == null || value.isEmpty() ? null : value;
    }

    /** General before specific (see the class comment): apply in this order, the last one wins. */
    @Override
    public int compareTo(Configurator other) {
        return ORDER.compare(this, other);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Configurator other && rule.equals(other.rule);
    }

    @Override
    public int hashCode() {
        return rule.hashCode();
    }

    @Override
    public String toString() {
        return rule.toString();
    }
}
