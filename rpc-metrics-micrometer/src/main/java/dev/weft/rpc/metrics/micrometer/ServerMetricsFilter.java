package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;

/**
 * Provider filter {@value #NAME}: times every call an exported service serves
 * ({@value Meters#SERVER_CALL_DURATION}, tags {@value Meters#SERVICE}, {@value Meters#METHOD},
 * {@value Meters#ERROR_TYPE}) and counts the calls refused as busy ({@value Meters#SERVER_BUSY}:
 * an inner filter threw {@code NOT_PROCESSED}, such as {@code executes=N} or {@code executes=auto}; the
 * calls a server refused under {@code executes=auto} as it read them, which no filter sees, are
 * counted in the same counter by the director's {@link MeterHub}).
 *
 * <p>Outermost in the provider chain, so the time includes every other provider filter. Measures
 * only once {@link WeftMetrics} is bound for the director; before that a call costs one volatile
 * read. Remove it with {@code filter=-metrics-server}. Thread-safe; its meters are per chain.
 */
@Activate(group = FilterChain.PROVIDER, order = -30_000)
public final class ServerMetricsFilter extends MeteredFilter {

    /** The extension name. */
    public static final String NAME = "metrics-server";

    @Override
    Filter forChain(MeterHub hub, Invoker<?> invoker) {
        Class<?> service = invoker.getInterface();
        return new TimingFilter(hub, new ChainMeters(Meters.SERVER_CALL_DURATION, false, Meters.SERVER_BUSY, service,
                ChainMeters.serviceTags(service)), TimingFilter.CountedCall.NOT_PROCESSED);
    }
}
