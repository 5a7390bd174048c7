package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.WeightTable;

import java.lang.reflect.Method;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The keys of a service URL that their readers read only when a call is made: {@value #TIMEOUT_KEY}
 * (the protocol, for each call, which fails every call with a bad one) and the weight keys of
 * rpc-loadbalance's {@link WeightTable} (the balancers, which leave a provider with a bad one out).
 * {@code export} and {@code refer} check them with the readers' own rules, so a bad value fails there,
 * naming the key, instead of at every call or silently on the consumers. Stateless.
 */
final class CallTimeKeys {

    /** Provider and consumer key, service-wide or per method ({@code greet.timeout}): call deadline in ms. */
    static final String TIMEOUT_KEY = "timeout";

    private CallTimeKeys() {
    }

    /**
     * Checks every {@value #TIMEOUT_KEY} of {@code url}, service-wide and per method.
     *
     * @throws IllegalArgumentException naming {@code what}, the key and its value when one is not a number of ms > 0
     */
    static void checkTimeouts(URL url, String what) {
        for (String key : url.getParameters().keySet()) {
            if (key.equals(TIMEOUT_KEY) || key.endsWith("." + TIMEOUT_KEY)) {
                long millis;
                try {
                    millis = url.getParameter(key, 1L);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(what + ": " + e.getMessage(), e);
                }
                if (millis <= 0) {
                    throw new IllegalArgumentException(what + ": " + key + ": " + url.getParameter(key)
                            + " (expected: milliseconds > 0) in " + url);
                }
            }
        }
    }

    /**
     * Checks the weight keys of {@code provider}'s URL as the balancers read them, service-wide
     * and for each method of {@code type}.
     *
     * @throws IllegalArgumentException naming {@code what} and the balancers' complaint
     */
    static void checkWeights(Invoker<?> provider, Class<?> type, String what) {
        Set<String> methods = new LinkedHashSet<>();
        methods.add(null);
        for (Method method : type.getMethods()) {
            methods.add(method.getName());
        }
        long now = System.currentTimeMillis();
        for (String method : methods) {
            List<String> problems = WeightTable.read(List.of(provider), method, now).problems();
            if (!problems.isEmpty()) {
                throw new IllegalArgumentException(what + ": " + problems.get(0)
                        + " (consumers would leave this provider out)");
            }
        }
    }
}
