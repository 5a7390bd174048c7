package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;

/**
 * Consumer filter {@value #NAME}: times every attempt at one provider
 * ({@value Meters#CLIENT_ATTEMPT_DURATION}, tags {@value Meters#SERVICE}, {@value Meters#METHOD},
 * {@value Meters#ERROR_TYPE} and {@value Meters#SERVER_ADDRESS}, the provider's {@code host:port}).
 * The consumer chain wraps one referred provider, so each retry or fork of a call is an attempt of
 * its own; every attempt after the first of a call (a retry, an extra fork, a broadcast target after
 * the first) counts in {@value Meters#CLIENT_RETRIES}, tagged by the provider it went to.
 *
 * <p>Placed right inside the context filter. Measures only once {@link WeftMetrics} is bound for
 * the director; before that a call costs one volatile read. Remove it with
 * {@code filter=-metrics-attempt}. Thread-safe; its meters are per chain.
 */
@Activate(group = FilterChain.CONSUMER, order = -9_000)
public final class AttemptMetricsFilter extends MeteredFilter {

    /** The extension name. */
    public static final String NAME = "metrics-attempt";

    @Override
    Filter forChain(MeterHub hub, Invoker<?> invoker) {
        URL url = invoker.getUrl();
        String address = url == null || url.getHost() == null ? "unknown" : url.getAddress();
        Class<?> service = invoker.getInterface();
        return new TimingFilter(hub, new ChainMeters(Meters.CLIENT_ATTEMPT_DURATION, false, Meters.CLIENT_RETRIES, service,
                ChainMeters.serviceTags(service).and(Meters.SERVER_ADDRESS, address)), TimingFilter.CountedCall.LATER_ATTEMPT);
    }
}
