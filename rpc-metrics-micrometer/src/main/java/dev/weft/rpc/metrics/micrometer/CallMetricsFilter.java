package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;

/**
 * Call filter {@value #NAME}: times every call as its caller saw it, every attempt and the mock
 * included ({@value Meters#CLIENT_CALL_DURATION}, tags {@value Meters#SERVICE}, {@value Meters#METHOD},
 * {@value Meters#ERROR_TYPE} and {@value Meters#OUTCOME}: {@code ok}, {@code error}, or {@code mocked}
 * when the mock answered, whatever it answered). Sync and async calls alike: the time runs until
 * the call's result ends.
 *
 * <p>Outermost in the {@code call} chain. Measures only once {@link WeftMetrics} is bound for the
 * director; before that a call costs one volatile read. Remove it with {@code filter=-metrics-call}.
 * Thread-safe; its meters are per chain (per referred service).
 */
@Activate(group = FilterChain.CALL, order = -30_000)
public final class CallMetricsFilter extends MeteredFilter {

    /** The extension name. */
    public static final String NAME = "metrics-call";

    @Override
    Filter forChain(MeterHub hub, Invoker<?> invoker) {
        Class<?> service = invoker.getInterface();
        return new TimingFilter(hub, new ChainMeters(Meters.CLIENT_CALL_DURATION, true, null, service,
                ChainMeters.serviceTags(service)), TimingFilter.CountedCall.NONE);
    }
}
