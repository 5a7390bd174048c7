package dev.weft.rpc.examples;

import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.Map;

/**
 * Turns a {@code --url} argument into the consumer URL of a scenario and checks the numeric keys
 * up front, so a typo is a one-line error before any call rather than thousands of failed calls.
 * Stateless and thread-safe.
 */
final class ConsumerUrls {

    /** The consumer URL that bare parameters ({@code cluster=failfast&retries=1}) are added to. */
    static final String BASE = "consumer://127.0.0.1/" + GreetingService.class.getName();

    /** Keys that must be integers, with the rule they follow (docs/url-keys.md). */
    private static final List<IntegerKey> INTEGER_KEYS = List.of(
            new IntegerKey("retries", Integer.MIN_VALUE, "an integer (negative means 0)"),
            new IntegerKey("timeout", 1, "milliseconds >= 1"),
            new IntegerKey("forks", Integer.MIN_VALUE, "an integer (<= 0 means all)"),
            new IntegerKey("failbacktasks", 1, "an integer >= 1"),
            new IntegerKey("failback.period", 1, "milliseconds >= 1"),
            new IntegerKey("broadcast.fail.percent", 0, "0 to 100"),
            new IntegerKey("hash.nodes", 1, "an integer >= 1"));

    private ConsumerUrls() {
    }

    /**
     * Parses {@code text}: a full URL ({@code consumer://host/Service?k=v}) or only its parameters
     * ({@code k=v&k2=v2}, added to {@link #BASE}). A URL with neither an {@code interface} key nor a
     * path gets the {@link GreetingService} path.
     *
     * @throws UsageException naming the URL and the problem
     */
    static URL parse(String text) throws UsageException {
        String trimmed = text == null ? "" : text.trim();
        URL url;
        try {
            if (trimmed.contains("://")) {
                url = URL.valueOf(trimmed);
            } else {
                String query = trimmed.startsWith("?") ? trimmed.substring(1) : trimmed;
                url = URL.valueOf(query.isEmpty() ? BASE : BASE + "?" + query);
            }
        } catch (IllegalArgumentException e) {
            throw new UsageException("--url: " + e.getMessage(), e);
        }
        if (url.getServiceInterface() == null || url.getServiceInterface().isEmpty()) {
            url = url.withPath(GreetingService.class.getName());
        }
        for (Map.Entry<String, String> parameter : url.getParameters().entrySet()) {
            for (IntegerKey key : INTEGER_KEYS) {
                if (parameter.getKey().equals(key.name) || parameter.getKey().endsWith("." + key.name)) {
                    key.check(parameter.getKey(), parameter.getValue(), url);
                }
            }
        }
        return url;
    }

    private record IntegerKey(String name, int min, String rule) {

        void check(String key, String value, URL url) throws UsageException {
            if (value.isEmpty()) {
                return;
            }
            try {
                long parsed = Long.parseLong(value.trim());
                if (parsed >= min && parsed <= Integer.MAX_VALUE
                        && (!name.equals("broadcast.fail.percent") || parsed <= 100)) {
                    return;
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new UsageException("--url " + key + ": '" + value + "' (expected: " + rule + ") in " + url);
        }
    }
}
