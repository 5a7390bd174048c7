package dev.weft.rpc.benchmarks;

import java.util.Locale;

/**
 * The shared definition of a benchmark workload, so the Weft and the Dubbo side build the same
 * thing: provider addresses, weights, service name, method and the rotating call arguments.
 */
public final class Workload {
    /** The interface name used in every URL. */
    public static final String SERVICE = Greeter.class.getName();
    /** The one method every benchmark calls. */
    public static final String METHOD = "greet";
    /** Parameter types of {@link #METHOD}. */
    public static final Class<?>[] PARAMETER_TYPES = {String.class};
    /** How many distinct call arguments the benchmarks rotate through (a power of two). */
    public static final int ARGUMENT_COUNT = 64;

    private Workload() {
    }

    /** Providers of the {@code warming} profile started this long ago (of a 10 minute warm-up). */
    static final long WARMING_UPTIME_MILLIS = 60_000;
    /** Providers of the {@code settled} profile started this long ago (past the 10 minute warm-up). */
    static final long SETTLED_UPTIME_MILLIS = 3_600_000;

    /**
     * Provider URL text for provider {@code index}: a distinct address and a weight profile:
     * {@code equal} leaves the default weight; {@code mixed} sets a weight from {50, 100, 150,
     * 200, 250}; {@code warming} keeps the default weight but marks each provider as started
     * about a minute ago ({@code timestamp}, one second apart), so all are inside the default
     * 10 minute warm-up and get different effective weights; {@code settled} keeps the default
     * weight and marks each provider as started about an hour ago, past the warm-up, as provider
     * URLs from a registry look (they carry the provider's start {@code timestamp}).
     */
    public static String providerUrl(int index, String weights) {
        String base = String.format(Locale.ROOT, "dubbo://10.0.%d.%d:20880/%s?interface=%s",
                index / 250, index % 250 + 1, SERVICE, SERVICE);
        switch (weights) {
            case "equal":
                return base;
            case "mixed":
                return base + "&weight=" + (50 * (index % 5 + 1));
            case "warming":
                return base + "&timestamp=" + (System.currentTimeMillis() - WARMING_UPTIME_MILLIS - 1_000L * index);
            case "settled":
                return base + "&timestamp=" + (System.currentTimeMillis() - SETTLED_UPTIME_MILLIS - 1_000L * index);
            default:
                throw new IllegalArgumentException("weights: " + weights + " (expected: equal, mixed, warming or settled)");
        }
    }

    /** Consumer URL text with the given extra query, e.g. {@code "cluster=failover&loadbalance=random"}. */
    public static String consumerUrl(String query) {
        String base = "consumer://10.1.0.1/" + SERVICE + "?interface=" + SERVICE;
        return query.isEmpty() ? base : base + "&" + query;
    }

    /** The call argument number {@code i} (the same strings for both frameworks). */
    public static String argument(int i) {
        return "user-" + i;
    }
}
