package dev.weft.rpc.loadbalance.internal;

import com.google.common.math.LongMath;
import dev.weft.rpc.common.URL;

/**
 * The weight keys of one provider for one method, read once: {@value #WEIGHT_KEY} (method level
 * first, default {@value #DEFAULT_WEIGHT}) reduced during warm-up.
 *
 * <p>Warm-up: when the provider URL has {@value #TIMESTAMP_KEY} (its start time, epoch millis) and
 * its uptime is below {@value #WARMUP_KEY} (millis, default {@value #DEFAULT_WARMUP_MILLIS}), the weight is
 * {@code max(1, min(weight, uptime * weight / warmup))}; a timestamp in the future counts as
 * uptime 0. A weight of 0 stays 0.
 *
 * <p>Immutable and thread-safe.
 *
 * @param weight          the static weight (no warm-up)
 * @param warmupEndMillis when warm-up ends (epoch millis), {@link Long#MIN_VALUE} without warm-up
 * @param warmupMillis    the warm-up period
 */
public record ProviderWeight(int weight, long warmupEndMillis, long warmupMillis) {

    /** Static weight of a provider (provider URL, method level first). */
    public static final String WEIGHT_KEY = "weight";
    /** Warm-up period in milliseconds (provider URL). */
    public static final String WARMUP_KEY = "warmup";
    /** Provider start time in epoch milliseconds (provider URL). */
    public static final String TIMESTAMP_KEY = "timestamp";
    public static final int DEFAULT_WEIGHT = 100;
    public static final long DEFAULT_WARMUP_MILLIS = 600_000;

    /**
     * Reads the weight keys of {@code provider} for {@code method} (null: the service level).
     *
     * @throws IllegalArgumentException when a key is malformed or the weight is negative, naming the key and the URL
     */
    public static ProviderWeight read(URL provider, String method) {
        String rawWeight = provider.getMethodParameter(method, WEIGHT_KEY);
        int weight = DEFAULT_WEIGHT;
        if (rawWeight != null && !rawWeight.isEmpty()) {
            String key = method != null && provider.hasMethodParameter(method, WEIGHT_KEY) ? method + "." + WEIGHT_KEY : WEIGHT_KEY;
            long value = parse(rawWeight, key, provider, "an integer between 0 and " + Integer.MAX_VALUE);
            if (value < 0 || value > Integer.MAX_VALUE) {
                throw invalid(key, rawWeight, provider, "an integer between 0 and " + Integer.MAX_VALUE);
            }
            weight = (int) value;
        }
        String rawTimestamp = provider.getParameter(TIMESTAMP_KEY);
        if (rawTimestamp == null || rawTimestamp.isEmpty()) {
            return new ProviderWeight(weight, Long.MIN_VALUE, DEFAULT_WARMUP_MILLIS);
        }
        long timestamp = parse(rawTimestamp, TIMESTAMP_KEY, provider, "epoch milliseconds");
        String rawWarmup = provider.getParameter(WARMUP_KEY);
        long warmup = rawWarmup == null || rawWarmup.isEmpty() ? DEFAULT_WARMUP_MILLIS
                : parse(rawWarmup, WARMUP_KEY, provider, "milliseconds as an integer");
        return new ProviderWeight(weight, warmup <= 0 ? Long.MIN_VALUE : LongMath.saturatedAdd(timestamp, warmup), warmup);
    }

    /** Whether the weight is still reduced by warm-up at {@code nowMillis}. */
    public boolean warmsUpAt(long nowMillis) {
        return weight > 0 && warmupEndMillis != Long.MIN_VALUE && nowMillis < warmupEndMillis;
    }

    /** The effective weight at {@code nowMillis}. */
    public int at(long nowMillis) {
        if (!warmsUpAt(nowMillis)) {
            return weight;
        }
        long uptime = Math.max(0, nowMillis - (warmupEndMillis - warmupMillis));
        long scaled = (long) ((double) uptime * weight / warmupMillis);
        return (int) Math.max(1, Math.min(weight, scaled));
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
}
