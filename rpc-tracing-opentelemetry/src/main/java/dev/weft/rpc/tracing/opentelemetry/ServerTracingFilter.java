package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;

/**
 * Provider filter {@value #NAME}: a {@code SERVER} span per call served, the child of the context
 * the caller sent in the call's attachments (a root span when there is none), current while the
 * rest of the chain and the service run, ended when the call's result ends (an asynchronous
 * service's future included). Outermost but for the server metrics filter. Traces only
 * once {@link WeftTelemetry} is installed on the director; before that a call costs one volatile
 * read. Remove it with {@code filter=-tracing-server}. Thread-safe.
 */
@Activate(group = FilterChain.PROVIDER, order = -25_000)
public final class ServerTracingFilter extends TracedFilter {

    /** The extension name. */
    public static final String NAME = "tracing-server";

    @Override
    Filter forChain(TraceHub hub, ServiceSpans spans, Invoker<?> invoker) {
        return new Chain(hub, spans);
    }

    /** The filter of one exported invoker. */
    private static final class Chain extends SpanChain {


        Chain(TraceHub hub, ServiceSpans spans) {
            super(hub, spans);
        }

        @Override
        Result traced(WeftTelemetry telemetry, Invoker<?> next, Invocation invocation) {
            Context caller = telemetry.propagator().extract(Context.root(), invocation, Attachments.GETTER);
            Span span = spans.start(telemetry, invocation.getMethodName(), SpanKind.SERVER, caller, null);
            return ServiceSpans.within(caller.with(span), span, false, next, invocation);
        }
    }
}
