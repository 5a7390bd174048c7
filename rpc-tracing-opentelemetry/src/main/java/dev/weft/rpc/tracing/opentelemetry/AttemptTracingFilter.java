package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.common.AttributesBuilder;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;

/**
 * Consumer filter {@value #NAME}: a {@code CLIENT} span per attempt at one provider, with
 * {@code server.address}, {@code server.port} and {@code weft.attempt} (1, 2, ... within the call),
 * ended when the attempt's result ends. Its parent is the call's span, which the call filter
 * ({@link CallTracingFilter}) put in the call's attachments, so a retry started on whatever thread
 * ended the previous attempt still belongs to its call (without that filter: the span current now);
 * an attempt started on the caller's thread finds the call's context current and takes it as is.
 * The attempt's own context goes to the provider in a copy of the call's attachments (W3C
 * {@code traceparent} and {@code tracestate} with the default propagators), leaving the call's for
 * its next attempt.
 *
 * <p>Right inside the context filter. Traces only once {@link WeftTelemetry} is installed on the
 * director; before that a call costs one volatile read. Remove it with
 * {@code filter=-tracing-attempt}. Thread-safe.
 */
@Activate(group = FilterChain.CONSUMER, order = -9_500)
public final class AttemptTracingFilter extends TracedFilter {

    /** The extension name. */
    public static final String NAME = "tracing-attempt";

    @Override
    Filter forChain(TraceHub hub, ServiceSpans spans, Invoker<?> invoker) {
        return new Chain(hub, spans);
    }

    /** {@code server.address} and {@code server.port} of the provider the chain calls, as far as its URL tells. */
    @Override
    Attributes chainAttributes(Invoker<?> invoker) {
        URL url = invoker.getUrl();
        AttributesBuilder provider = Attributes.builder();
        if (url != null && url.getHost() != null) {
            provider.put(ServiceSpans.SERVER_ADDRESS, url.getHost());
        }
        if (url != null && url.getPort() > 0) {
            provider.put(ServiceSpans.SERVER_PORT, (long) url.getPort());
        }
        return provider.build();
    }

    /** The filter of one referred provider. */
    private static final class Chain extends SpanChain {

        Chain(TraceHub hub, ServiceSpans spans) {
            super(hub, spans);
        }

        @Override
        Result traced(WeftTelemetry telemetry, Invoker<?> next, Invocation invocation) {
            Context call = InjectedContext.callOf(telemetry.propagator(), Context.current(), invocation);
            Span span = spans.start(telemetry, invocation.getMethodName(), SpanKind.CLIENT, call,
                    (long) invocation.getCallOptions().attempt());
            Context attempt = call.with(span);
            RpcInvocation carrier = RpcInvocation.copyOf(invocation);
            telemetry.propagator().inject(attempt, carrier, Attachments.SETTER);
            return ServiceSpans.within(attempt, span, false, next, carrier);
        }
    }
}
