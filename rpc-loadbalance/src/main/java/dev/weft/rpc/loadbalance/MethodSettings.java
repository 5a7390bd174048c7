package dev.weft.rpc.loadbalance;

import com.google.common.base.Splitter;
import com.google.common.primitives.Doubles;
import com.google.common.primitives.Ints;
import com.google.common.primitives.Longs;
import dev.weft.rpc.common.URL;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Reads the keys of one consumer URL for one method, with one rule and one message format for
 * every strategy (balancers and cluster strategies, built-in and custom).
 *
 * <p><b>Lookup.</b> {@code <method>.<key>} first, then {@code <key>}, then the default; an empty
 * value counts as absent. <b>Errors.</b> A malformed or out-of-range value throws
 * {@link IllegalArgumentException} as {@code <key as written>: <value> (expected: <rule>) in
 * consumer URL <url>}, where the key is the one the user wrote: {@code hello.timeout: -1 (...)},
 * not {@code timeout}.
 *
 * <p>Strategies read their settings when a directory state is built (once per state and method),
 * so a bad value is rejected by {@code join}/{@code setUrl}, never found on a later call.
 *
 * <p>Immutable and thread-safe.
 */
public final class MethodSettings {

    private static final Pattern DURATION = Pattern.compile("(\\d{1,12})(ms|s|m)");

    private final URL url;
    private final String method;
    private final String source;

    /** Settings of {@code method} (null: the service level) under consumer URL {@code url}. */
    public MethodSettings(URL url, String method) {
        this(url, method, "consumer URL");
    }

    private MethodSettings(URL url, String method, String source) {
        this.url = Objects.requireNonNull(url, "url");
        this.method = method;
        this.source = source;
    }

    /** The keys of provider URL {@code provider} for {@code method}: the same rules, errors naming the provider URL. */
    public static MethodSettings ofProvider(URL provider, String method) {
        return new MethodSettings(provider, method, "provider URL");
    }

    public URL url() {
        return url;
    }

    /** The method, null for the service level. */
    public String method() {
        return method;
    }

    /** The key as the user wrote it: {@code method.key} when that is set, else {@code key}. */
    public String keyName(String key) {
        return method != null && !url.getParameter(method + "." + key, "").isEmpty() ? method + "." + key : key;
    }

    /** The raw value ({@code method.key}, then {@code key}), or null when absent or empty. */
    public String raw(String key) {
        String value = url.getMethodParameter(method, key);
        return value == null || value.isEmpty() ? null : value.trim();
    }

    public String getString(String key, String defaultValue) {
        String raw = raw(key);
        return raw == null ? defaultValue : raw;
    }

    /** An integer in {@code [min, max]}. */
    public int getInt(String key, int defaultValue, int min, int max) {
        return (int) getLong(key, defaultValue, min, max);
    }

    /** A long in {@code [min, max]}. */
    public long getLong(String key, long defaultValue, long min, long max) {
        String raw = raw(key);
        if (raw == null) {
            return defaultValue;
        }
        Long value = Longs.tryParse(raw);
        if (value == null) {
            throw invalid(key, raw, range("an integer", min, max));
        }
        if (value < min || value > max) {
            throw invalid(key, raw, value > max ? "an integer from " + min + " to " + max : range("an integer", min, max));
        }
        return value;
    }

    /** A finite number in {@code [min, max]}. */
    public double getDouble(String key, double defaultValue, double min, double max) {
        String raw = raw(key);
        if (raw == null) {
            return defaultValue;
        }
        Double value = Doubles.tryParse(raw);
        if (value == null || !(value >= min && value <= max)) {
            throw invalid(key, raw, max == Double.MAX_VALUE ? "a number >= " + min : "a number from " + min + " to " + max);
        }
        return value;
    }

    /**
     * A duration written {@code <integer><unit>} with unit {@code ms}, {@code s} or {@code m}
     * ({@code 50ms}, {@code 30s}, {@code 10m}), in {@code [min, max]}.
     */
    public Duration getDuration(String key, Duration defaultValue, Duration min, Duration max) {
        String raw = raw(key);
        if (raw == null) {
            return defaultValue;
        }
        String expected = "a duration such as 50ms, 30s or 10m, from " + format(min) + " to " + format(max);
        Matcher matcher = DURATION.matcher(raw.toLowerCase(Locale.ROOT));
        Long amount = matcher.matches() ? Longs.tryParse(matcher.group(1)) : null;
        if (amount == null || amount > Integer.MAX_VALUE) {
            throw invalid(key, raw, expected);
        }
        Duration value = switch (matcher.group(2)) {
            case "ms" -> Duration.ofMillis(amount);
            case "s" -> Duration.ofSeconds(amount);
            default -> Duration.ofMinutes(amount);
        };
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw invalid(key, raw, expected);
        }
        return value;
    }

    private static String format(Duration duration) {
        long millis = duration.toMillis();
        return millis % 60_000 == 0 && millis > 0 ? millis / 60_000 + "m" : millis % 1000 == 0 && millis > 0 ? millis / 1000 + "s" : millis + "ms";
    }

    /** {@code true} or {@code false} (any case). */
    public boolean getBoolean(String key, boolean defaultValue) {
        String raw = raw(key);
        if (raw == null) {
            return defaultValue;
        }
        String lower = raw.toLowerCase(Locale.ROOT);
        if (lower.equals("true") || lower.equals("false")) {
            return lower.equals("true");
        }
        throw invalid(key, raw, "true or false");
    }

    /** Comma-separated integers {@code >= 0}, e.g. {@code 0,2}. */
    public int[] getIndexes(String key, String defaultValue) {
        String raw = getString(key, defaultValue);
        List<String> parts = Splitter.on(',').trimResults().splitToList(raw);
        int[] indexes = new int[parts.size()];
        for (int i = 0; i < indexes.length; i++) {
            Integer index = Ints.tryParse(parts.get(i));
            if (index == null || index < 0) {
                throw invalid(key, raw, "comma-separated integers >= 0, e.g. 0,2");
            }
            indexes[i] = index;
        }
        return indexes;
    }

    /** The error for {@code key}: {@code what: value (expected: rule) in consumer URL ...} (or provider URL). */
    public IllegalArgumentException invalid(String key, String value, String expected) {
        return new IllegalArgumentException(keyName(key) + ": " + value + " (expected: " + expected + ") in " + source + " " + url);
    }

    private static String range(String what, long min, long max) {
        if (max == Long.MAX_VALUE || max == Integer.MAX_VALUE) {
            return min == Long.MIN_VALUE || min == Integer.MIN_VALUE ? what : what + " >= " + min;
        }
        return what + " from " + min + " to " + max;
    }

    @Override
    public String toString() {
        return "MethodSettings[" + (method == null ? "*" : method) + ", " + url + "]";
    }
}
