package dev.weft.rpc.examples;

import com.google.common.base.Preconditions;

import java.util.Objects;

/**
 * One playground provider: its name, static weight, mean latency, failure rate and (optional)
 * zone. Its implementation ({@link LatentGreetingService}) sleeps the latency; in the tour its
 * {@link TourOutage} fails attempts at it at the failure rate, as an outage does; the weight and
 * zone go in the URL consumers see. Immutable.
 *
 * @param name         the provider's name, in its answers and in charts
 * @param weight       the {@code weight} URL key of the provider (>= 0)
 * @param latencyNanos mean simulated latency; each call takes a seeded uniform draw in
 *                     [0.5, 1.5] × this value
 * @param failRate     share of the tour's attempts (0..1) at this provider that fail with
 *                     {@code RpcException(NETWORK_EXCEPTION)} before reaching it
 *                     (see {@link TourOutageFilter})
 * @param zone         the provider's {@code zone} URL key, or {@code null} for none
 */
record ProviderSpec(String name, int weight, long latencyNanos, double failRate, String zone) {

    ProviderSpec {
        Objects.requireNonNull(name, "name");
        Preconditions.checkArgument(weight >= 0, "weight: %s (expected: >= 0)", weight);
        Preconditions.checkArgument(latencyNanos >= 0, "latency: %s ns (expected: >= 0)", latencyNanos);
        Preconditions.checkArgument(failRate >= 0 && failRate <= 1, "fail: %s (expected: 0..1)", failRate);
    }

    /** This provider with every call failing: a provider in an outage. */
    ProviderSpec down() {
        return new ProviderSpec(name, weight, latencyNanos, 1.0, zone);
    }
}
