package dev.weft.rpc.examples;

import com.google.common.base.Preconditions;
import dev.weft.rpc.common.URL;

import java.util.Objects;

/**
 * One simulated provider: its name, static weight, mean latency, network failure rate and
 * (optional) zone. Immutable.
 *
 * @param name         the provider's name, used as its host in the provider URL and in charts
 * @param weight       the {@code weight} URL key of the provider (>= 0)
 * @param latencyNanos mean simulated latency; each call takes a seeded uniform draw in
 *                     [0.5, 1.5] × this value
 * @param failRate     share of calls (0..1) failing with {@code RpcException(NETWORK_EXCEPTION)}
 * @param zone         the provider's {@code zone} URL key, or {@code null} for none
 */
record ProviderSpec(String name, int weight, long latencyNanos, double failRate, String zone) {

    static final int PORT = 20880;

    ProviderSpec {
        Objects.requireNonNull(name, "name");
        Preconditions.checkArgument(weight >= 0, "weight: %s (expected: >= 0)", weight);
        Preconditions.checkArgument(latencyNanos >= 0, "latency: %s ns (expected: >= 0)", latencyNanos);
        Preconditions.checkArgument(failRate >= 0 && failRate <= 1, "fail: %s (expected: 0..1)", failRate);
    }

    /**
     * The provider URL: {@code weft://<name>:20880/dev.weft.rpc.examples.GreetingService?weight=<w>[&zone=<z>]}.
     */
    URL url() {
        URL url = new URL("weft", name, PORT, GreetingService.class.getName()).addParameter("weight", weight);
        return zone == null ? url : url.addParameter("zone", zone);
    }

    /** This provider with every call failing: a provider in an outage. */
    ProviderSpec down() {
        return new ProviderSpec(name, weight, latencyNanos, 1.0, zone);
    }
}
