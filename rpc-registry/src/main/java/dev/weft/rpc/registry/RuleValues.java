package dev.weft.rpc.registry;

import com.google.common.primitives.Ints;
import com.google.common.primitives.Longs;

import java.util.Map;

/**
 * The checks a {@link RegistryDirectory} makes on the values a rule sets for keys that reach their
 * readers unchecked, whether or not a target had the key before: {@value #TIMEOUT_KEY}
 * (handed to the protocol with each call, which would fail every call with a bad one), and
 * {@value #WEIGHT_KEY}, {@value #WARMUP_KEY} and {@value #TIMESTAMP_KEY} (read by the balancers,
 * which leave a provider with a bad one out, so a bad rule for every provider would leave none). Service-wide and method-level forms
 * ({@code sayHello.timeout}) alike. Stateless.
 */
final class RuleValues {

    /** Provider and method key, read by rpc-loadbalance's balancers: an integer from 0. */
    static final String WEIGHT_KEY = "weight";
    /** Consumer and method key, declared by the protocols: each attempt's deadline in ms. */
    static final String TIMEOUT_KEY = "timeout";
    /** Provider key, read by the balancers with {@value #TIMESTAMP_KEY}: the warm-up period in ms. */
    static final String WARMUP_KEY = "warmup";
    /** Provider key, read by the balancers: the provider's start time, epoch ms. */
    static final String TIMESTAMP_KEY = "timestamp";

    private RuleValues() {
    }

    /** Why a rule with {@code parameters} must be left out, or {@code null} when its values are usable. */
    static String problem(Map<String, String> parameters) {
        for (Map.Entry<String, String> entry : parameters.entrySet()) {
            String key = entry.getKey();
            String value = entry.getValue().trim();
            if (is(key, TIMEOUT_KEY)) {
                Long millis = Longs.tryParse(value);
                if (millis == null || millis <= 0) {
                    return key + ": " + entry.getValue() + " (expected: milliseconds > 0)";
                }
            } else if (is(key, WARMUP_KEY) || is(key, TIMESTAMP_KEY)) {
                if (Longs.tryParse(value) == null) {
                    return key + ": " + entry.getValue() + " (expected: an integer, milliseconds)";
                }
            } else if (is(key, WEIGHT_KEY)) {
                Integer weight = Ints.tryParse(value);
                if (weight == null || weight < 0) {
                    return key + ": " + entry.getValue() + " (expected: an integer 0-" + Integer.MAX_VALUE + ")";
                }
            }
        }
        return null;
    }

    /** Whether {@code key} is {@code name} or a method's {@code name} ({@code sayHello.name}). */
    private static boolean is(String key, String name) {
        return key.equals(name) || key.endsWith("." + name);
    }
}
