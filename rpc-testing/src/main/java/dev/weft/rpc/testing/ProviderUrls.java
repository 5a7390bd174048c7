package dev.weft.rpc.testing;

import dev.weft.rpc.common.URL;

import java.time.Duration;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Provider URLs for tests: {@code weft://<host>:20880/<service>} with the keys balancers read
 * from a provider ({@code weight}, {@code warmup}, {@code timestamp}; declared and documented by
 * {@code rpc-loadbalance}). Stateless; the URLs are immutable.
 */
public final class ProviderUrls {

    /** Provider key: static weight, default 100 (read by the balancers). */
    private static final String WEIGHT = "weight";
    /** Provider key: warm-up period in ms (read by the balancers). */
    private static final String WARMUP = "warmup";
    /** Provider key: the provider's start time in ms since the epoch (read by the balancers). */
    private static final String TIMESTAMP = "timestamp";

    private ProviderUrls() {
    }

    /** {@code weft://<host>:20880/<service's binary name>}. */
    public static URL of(Class<?> service, String host) {
        return of(service, host, FakeProvider.PORT);
    }

    /**
     * {@code weft://<host>:<port>/<service's binary name>}.
     *
     * @throws IllegalArgumentException when {@code port} is outside 0..65535 or the host is not valid in a URL
     */
    public static URL of(Class<?> service, String host, int port) {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(host, "host");
        checkArgument(port >= 0 && port <= 65_535, "port: %s (expected: 0..65535)", port);
        return URL.valueOf("weft://" + host + ":" + port + "/" + service.getName());
    }

    /**
     * {@code url} with {@code weight=<weight>}.
     *
     * @throws IllegalArgumentException when {@code weight} is negative
     */
    public static URL withWeight(URL url, int weight) {
        Objects.requireNonNull(url, "url");
        checkArgument(weight >= 0, "weight: %s (expected: >= 0)", weight);
        return url.addParameter(WEIGHT, weight);
    }

    /**
     * {@code url} with {@code warmup=<period in ms>&timestamp=<startedAtMillis>}: a provider that
     * started at {@code startedAtMillis} (wall clock) and ramps its weight up over {@code period}.
     *
     * @throws IllegalArgumentException when {@code period} is negative or {@code startedAtMillis} is not positive
     */
    public static URL withWarmup(URL url, Duration period, long startedAtMillis) {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(period, "period");
        checkArgument(!period.isNegative(), "warmup: %s (expected: >= 0)", period);
        checkArgument(startedAtMillis > 0, "timestamp: %s (expected: > 0, ms since the epoch)", startedAtMillis);
        return url.addParameter(WARMUP, period.toMillis()).addParameter(TIMESTAMP, startedAtMillis);
    }
}
