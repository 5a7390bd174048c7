package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.protocol.Filter;

/**
 * The filter of one chain: passes calls on untouched (one volatile read) until telemetry is
 * installed on the director, then traces each one. Thread-safe.
 */
abstract class SpanChain implements Filter {

    final TraceHub hub;
    final ServiceSpans spans;

    SpanChain(TraceHub hub, ServiceSpans spans) {
        this.hub = hub;
        this.spans = spans;
    }

    @Override
    public final Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
        WeftTelemetry telemetry = hub.telemetry();
        return telemetry == null ? next.invoke(invocation) : traced(telemetry, next, invocation);
    }

    /** Calls {@code next} inside a span of {@code telemetry}. */
    abstract Result traced(WeftTelemetry telemetry, Invoker<?> next, Invocation invocation);
}
