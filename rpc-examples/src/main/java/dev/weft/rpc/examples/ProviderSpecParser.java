package dev.weft.rpc.examples;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * Parses the {@code --providers} spec.
 *
 * <pre>
 * spec     = provider *( ";" provider )
 * provider = name [ ":" key "=" value *( "," key "=" value ) ]
 * key      = weight   (integer >= 0, default 100)
 *          | latency  (duration: 500us, 2ms, 1.5s, 250ns; a bare number is milliseconds; default 1ms)
 *          | fail     (share of calls failed as in an outage, with a network error: 0..1 or 0%..100%, default 0)
 *          | zone     (a word, sent as the provider URL key "zone"; default none)
 * name     = letters, digits, '-', '_' (unique; it becomes the provider URL's host)
 * </pre>
 *
 * Example: {@code a:weight=100,latency=2ms;b:weight=200,fail=20%;c:latency=20ms,zone=eu}.
 * Stateless and thread-safe.
 */
final class ProviderSpecParser {

    static final String OPTION = "--providers";
    static final int DEFAULT_WEIGHT = 100;
    static final long DEFAULT_LATENCY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    static final int MAX_PROVIDERS = 64;
    private static final long MAX_LATENCY_NANOS = TimeUnit.SECONDS.toNanos(10);

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9_-]{0,31}");
    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9._-]{1,64}");
    private static final Pattern DURATION = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ns|us|ms|s)?");
    private static final String KEYS = "weight, latency, fail or zone";

    private ProviderSpecParser() {
    }

    /** {@code spec} written back in the grammar {@link #parse} reads: {@code parse(format(p))} equals {@code p}. */
    static String format(ProviderSpec spec) {
        return spec.name() + ":weight=" + spec.weight() + ",latency=" + spec.latencyNanos() + "ns,fail="
                + spec.failRate() + (spec.zone() == null ? "" : ",zone=" + spec.zone());
    }

    /**
     * Parses {@code spec} into providers, in order.
     *
     * @throws UsageException naming the offending part and the rule it breaks
     */
    static List<ProviderSpec> parse(String spec) throws UsageException {
        if (spec == null || spec.isBlank()) {
            throw new UsageException(OPTION + ": '" + (spec == null ? "" : spec)
                    + "' (expected: name[:key=value,...] separated by ';', e.g. a:weight=100,latency=2ms;b:fail=0.2)");
        }
        List<ProviderSpec> providers = new ArrayList<>();
        Set<String> names = new HashSet<>();
        for (String part : spec.split(";", -1)) {
            String provider = part.trim();
            if (provider.isEmpty()) {
                throw new UsageException(OPTION + ": empty provider in '" + spec
                        + "' (expected: providers separated by single ';')");
            }
            ProviderSpec parsed = parseProvider(provider);
            if (!names.add(parsed.name().toLowerCase(Locale.ROOT))) {
                throw new UsageException(OPTION + " name: " + parsed.name() + " (expected: unique provider names)");
            }
            providers.add(parsed);
        }
        if (providers.size() > MAX_PROVIDERS) {
            throw new UsageException(OPTION + ": " + providers.size() + " providers (expected: at most "
                    + MAX_PROVIDERS + ")");
        }
        return List.copyOf(providers);
    }

    private static ProviderSpec parseProvider(String provider) throws UsageException {
        int colon = provider.indexOf(':');
        String name = (colon < 0 ? provider : provider.substring(0, colon)).trim();
        if (!NAME.matcher(name).matches()) {
            throw new UsageException(OPTION + " name: '" + name + "' in '" + provider
                    + "' (expected: 1-32 letters, digits, '-' or '_', starting with a letter or digit)");
        }
        int weight = DEFAULT_WEIGHT;
        long latency = DEFAULT_LATENCY_NANOS;
        double fail = 0;
        String zone = null;
        if (colon >= 0) {
            for (String property : provider.substring(colon + 1).split(",", -1)) {
                int eq = property.indexOf('=');
                if (eq < 0) {
                    throw new UsageException(OPTION + ": '" + property.trim() + "' in '" + provider
                            + "' (expected: key=value with key " + KEYS + ")");
                }
                String key = property.substring(0, eq).trim().toLowerCase(Locale.ROOT);
                String value = property.substring(eq + 1).trim();
                switch (key) {
                    case "weight" -> weight = parseWeight(value, provider);
                    case "latency" -> latency = parseDuration(value, provider);
                    case "fail" -> fail = parseRate(value, provider);
                    case "zone" -> zone = parseZone(value, provider);
                    default -> throw new UsageException(OPTION + " key: '" + key + "' in '" + provider
                            + "' (expected: " + KEYS + ")");
                }
            }
        }
        return new ProviderSpec(name, weight, latency, fail, zone);
    }

    private static int parseWeight(String value, String provider) throws UsageException {
        try {
            int weight = Integer.parseInt(value);
            if (weight >= 0) {
                return weight;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(OPTION + " weight: '" + value + "' in '" + provider
                + "' (expected: an integer >= 0)");
    }

    /** Parses {@code 500us}, {@code 2ms}, {@code 1.5s}, {@code 250ns}; a bare number is milliseconds. */
    static long parseDuration(String value, String provider) throws UsageException {
        var matcher = DURATION.matcher(value.toLowerCase(Locale.ROOT));
        if (matcher.matches()) {
            double amount = Double.parseDouble(matcher.group(1));
            String unit = matcher.group(2) == null ? "ms" : matcher.group(2);
            double nanos = switch (unit) {
                case "ns" -> amount;
                case "us" -> amount * 1e3;
                case "ms" -> amount * 1e6;
                default -> amount * 1e9;
            };
            if (nanos <= MAX_LATENCY_NANOS) {
                return Math.round(nanos);
            }
        }
        throw new UsageException(OPTION + " latency: '" + value + "' in '" + provider
                + "' (expected: a duration up to 10s such as 250us, 2ms, 1.5s; a bare number is ms)");
    }

    private static double parseRate(String value, String provider) throws UsageException {
        try {
            boolean percent = value.endsWith("%");
            double rate = Double.parseDouble(percent ? value.substring(0, value.length() - 1).trim() : value);
            if (percent) {
                rate /= 100;
            }
            if (rate >= 0 && rate <= 1) {
                return rate;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new UsageException(OPTION + " fail: '" + value + "' in '" + provider
                + "' (expected: a rate from 0 to 1, or 0% to 100%)");
    }

    private static String parseZone(String value, String provider) throws UsageException {
        if (WORD.matcher(value).matches()) {
            return value;
        }
        throw new UsageException(OPTION + " zone: '" + value + "' in '" + provider
                + "' (expected: 1-64 letters, digits, '.', '-' or '_')");
    }
}
