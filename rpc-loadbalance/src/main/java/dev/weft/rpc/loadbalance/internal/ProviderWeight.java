package dev.weft.rpc.loadbalance.internal;

import dev.weft.rpc.common.URL;

/**
 * Reads the effective weight of one provider: {@value #WEIGHT_KEY} (method level first, default
 * {@value #DEFAULT_WEIGHT}) reduced during warm-up.
 *
 * <p>Warm-up: when the provider URL has {@value #TIMESTAMP_KEY} (its start time, epoch millis) and
 * its uptime is below {@value #WARMUP_KEY} (millis, default {@value #DEFAULT_WARMUP_MILLIS}), the weight is
 * {@code max(1, min(weight, uptime * weight / warmup))}; a timestamp in the future counts as
 * uptime 0. A weight of 0 stays 0.
 *
 * <p>Stateless and thread-safe.
 */
public final class ProviderWeight {

    /** Static weight of a provider (provider URL, method level first). */
    public static final String WEIGHT_KEY = "weight";
    /** Warm-up period in milliseconds (provider URL). */
    public static final String WARMUP_KEY = "warmup";
    /** Provider start time in epoch milliseconds (provider URL). */
    public static final String TIMESTAMP_KEY = "timestamp";
    public static final int DEFAULT_WEIGHT = 100;
    public static final long DEFAULT_WARMUP_MILLIS = 600_000;

    private ProviderWeight() {
    }

    /**
     * The static weight (no warm-up) of {@code provider} for {@code method}.
     *
     * @throws IllegalArgumentException when the value is not an integer or is negative, naming the key and the URL
     */
    public static int staticWeight(URL provider, String method) {
        String raw = provider.getMethodParameter(method, WEIGHT_KEY);
        if (raw == null || raw.isEmpty()) {
            return DEFAULT_WEIGHT;
        }
        String key = method != null && provider.hasMethodParameter(method, WEIGHT_KEY) ? method + "." + WEIGHT_KEY : WEIGHT_KEY;
        long value = parse(raw, key, provider, "an integer between 0 and " + Integer.MAX_VALUE);
        if (value < 0 || value > Integer.MAX_VALUE) {
            throw invalid(key, raw, provider, "an integer between 0 and " + Integer.MAX_VALUE);
        }
        return (int) value;
    }

    /**
     * The end of the warm-up period of {@code provider} in epoch millis, or {@link Long#MIN_VALUE}
     * when it has no {@value #TIMESTAMP_KEY} or no warm-up.
     *
     * @throws IllegalArgumentException when {@value #TIMESTAMP_KEY} or {@value #WARMUP_KEY} is malformed
     */
    public static long warmupEndMillis(URL provider) {
        String rawTimestamp = provider.getParameter(TIMESTAMP_KEY);
        if (rawTimestamp == null || rawTimestamp.isEmpty()) {
            return Long.MIN_VALUE;
        }
        long timestamp = parse(rawTimestamp, TIMESTAMP_KEY, provider, "epoch milliseconds");
        long warmup = warmupMillis(provider);
        return warmup <= 0 ? Long.MIN_VALUE : saturatedAdd(timestamp, warmup);
    }

    /**
     * The effective weight at {@code nowMillis}, given the static weight.
     *
     * @param warmupEndMillis as returned by {@link #warmupEndMillis(URL)}
     */
    public static int warmedWeight(URL provider, int staticWeight, long warmupEndMillis, long nowMillis) {
        if (staticWeight == 0 || warmupEndMillis == Long.MIN_VALUE || nowMillis >= warmupEndMillis) {
            return staticWeight;
        }
        long warmup = warmupMillis(provider);
        long start = warmupEndMillis - warmup;
        long uptime = Math.max(0, nowMillis - start);
        long scaled = (long) ((double) uptime * staticWeight / warmup);
        return (int) Math.max(1, Math.min(staticWeight, scaled));
    }

    private static long warmupMillis(URL provider) {
        String raw = provider.getParameter(WARMUP_KEY);
        if (raw == null || raw.isEmpty()) {
            return DEFAULT_WARMUP_MILLIS;
        }
        return parse(raw, WARMUP_KEY, provider, "milliseconds as an integer");
    }

    private static long parse(String raw, String key, URL provider, String expected) {
        try {
            return Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw invalid(key, raw, provider, expected);
        }
    }

    private static IllegalArgumentException invalid(String key, String raw, URL provider, String expected) {
        return new IllegalArgumentException(key + ": " + raw + " (expected: " + expected + ") in provider URL " + provider);
    }

    private static long saturatedAdd(long a, long b) {
        long sum = a + b;
        return ((a ^ sum) & (b ^ sum)) < 0 ? Long.MAX_VALUE : sum;
    }
}
