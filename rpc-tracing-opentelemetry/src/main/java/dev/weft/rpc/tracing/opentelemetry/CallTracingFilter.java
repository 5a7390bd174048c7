package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;

/**
 * Call filter {@value #NAME}: a {@code CLIENT} span per call as the caller sees it, the child of
 * the span current when the call is made, with {@code weft.mocked} (whether the mock answered),
 * ended when the call's result ends (every attempt, retry and the mock inside it, sync or async).
 * Its context goes into the call's attachments, where each attempt ({@link AttemptTracingFilter})
 * finds its parent whatever thread starts it; it is current while the rest of the call runs on
 * the caller's thread, so an attempt started there takes it as is ({@link InjectedContext}).
 *
 * <p>Outermost in the {@code call} chain but for the metrics filter. Traces only once
 * {@link WeftTelemetry} is installed on the director; before that a call costs one volatile read.
 * Remove it with {@code filter=-tracing-call}. Thread-safe.
 */
@Activate(group = FilterChain.CALL, order = -25_000)
public final class CallTracingFilter extends TracedFilter {

    /** The extension name. */
    public static final String NAME = "tracing-call";

    @Override
    Filter forChain(TraceHub hub, ServiceSpans spans, Invoker<?> invoker) {
        return new Chain(hub, spans);
    }

    /** The filter of one referred service. */
    private static final class Chain extends SpanChain {


        Chain(TraceHub hub, ServiceSpans spans) {
            super(hub, spans);
        }

        @Override
        Result traced(WeftTelemetry telemetry, Invoker<?> next, Invocation invocation) {
            Context current = Context.current();
            Span span = spans.start(telemetry, invocation.getMethodName(), SpanKind.CLIENT, current, null);
            RpcInvocation carrier = Attachments.writable(invocation);
            Context call = InjectedContext.inject(telemetry.propagator(), current.with(span), carrier);
            return ServiceSpans.within(call, span, true, next, carrier);
        }
    }
}
