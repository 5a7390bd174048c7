package dev.weft.rpc.metrics.micrometer;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.ErrorType;
import dev.weft.rpc.protocol.Filter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.TimeUnit;

/**
 * The filter one chain gets from {@link ServerMetricsFilter} or {@link AttemptMetricsFilter}: times
 * each call into the chain's timers by method and {@link ErrorType} and, when the chain has a
 * counter, counts the calls refused with {@code NOT_PROCESSED}. While the director has no registry
 * bound, a call costs one volatile read. Thread-safe.
 */
final class TimingFilter implements Filter {

    private final MeterHub hub;
    private final Ticker ticker;
    private final ChainMeters meters;
    private final boolean countNotProcessed;

    TimingFilter(MeterHub hub, ChainMeters meters, boolean countNotProcessed) {
        this.hub = hub;
        this.ticker = hub.ticker();
        this.meters = meters;
        this.countNotProcessed = countNotProcessed;
    }

    @Override
    public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
        MeterRegistry registry = hub.registry();
        if (registry == null) {
            return next.invoke(invocation);
        }
        long start = ticker.read();
        String method = invocation.getMethodName();
        Result result;
        try {
            result = next.invoke(invocation);
        } catch (RuntimeException | Error e) {
            ErrorType type = ErrorType.ofThrown(e);
            record(registry, method, type, start);
            if (countNotProcessed && type == ErrorType.NOT_PROCESSED) {
                meters.counter(registry, method).increment();
            }
            throw e;
        }
        record(registry, method, ErrorType.of(result), start);
        return result;
    }

    private void record(MeterRegistry registry, String method, ErrorType type, long start) {
        meters.timer(registry, method, type).record(ticker.read() - start, TimeUnit.NANOSECONDS);
    }
}
