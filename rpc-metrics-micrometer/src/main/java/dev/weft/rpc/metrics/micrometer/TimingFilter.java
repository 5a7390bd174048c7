package dev.weft.rpc.metrics.micrometer;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.ErrorType;
import dev.weft.rpc.protocol.Filter;
import io.micrometer.core.instrument.MeterRegistry;

import java.util.concurrent.TimeUnit;

/**
 * The filter one chain gets from {@link CallMetricsFilter}, {@link AttemptMetricsFilter} or
 * {@link ServerMetricsFilter}: times each call into the chain's timers by method and
 * {@link ErrorType} when the call ends (sync or async: the end of its result, never the return of
 * {@code invoke}), and counts into the chain's counter the calls its {@link CountedCall} selects.
 * While the director has no registry bound, a call costs one volatile read. Thread-safe.
 */
final class TimingFilter implements Filter {

    /** Which calls the chain's counter counts. */
    enum CountedCall {
        /** None (the chain has no counter). */
        NONE,
        /** Those refused as busy ({@code NOT_PROCESSED}). */
        NOT_PROCESSED,
        /** Attempts after the first of a call ({@code CallOptions.attempt() > 1}), counted as they start. */
        LATER_ATTEMPT
    }

    private final MeterHub hub;
    private final Ticker ticker;
    private final ChainMeters meters;
    private final CountedCall counted;

    TimingFilter(MeterHub hub, ChainMeters meters, CountedCall counted) {
        this.hub = hub;
        this.ticker = hub.ticker();
        this.meters = meters;
        this.counted = counted;
    }

    @Override
    public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
        MeterRegistry registry = hub.registry();
        if (registry == null) {
            return next.invoke(invocation);
        }
        long start = ticker.read();
        String method = invocation.getMethodName();
        if (counted == CountedCall.LATER_ATTEMPT && invocation.getCallOptions().attempt() > 1) {
            meters.counter(registry, method).increment();
        }
        Result result = next.invoke(invocation);
        if (result.isDone()) { // the common in-process case: recorded now, no action object
            Throwable failure = Results.failureOf(result);
            record(registry, method, start, failure == null ? result : null, failure);
            return result;
        }
        return result.whenComplete((answer, failure) -> record(registry, method, start, answer, failure));
    }

    /** Records a call of {@code method} started at {@code start} that ended with {@code result} or {@code failure}. */
    private void record(MeterRegistry registry, String method, long start, Result result, Throwable failure) {
        ErrorType type = failure != null ? ErrorType.ofThrown(failure) : ErrorType.of(result);
        boolean mocked = result != null && result.isMocked();
        meters.timer(registry, method, type, mocked).record(ticker.read() - start, TimeUnit.NANOSECONDS);
        if (counted == CountedCall.NOT_PROCESSED && type == ErrorType.NOT_PROCESSED) {
            meters.counter(registry, method).increment();
        }
    }
}
