package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ChainScopedFilter;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.spi.Activate;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

import java.util.Objects;

/**
 * Consumer filter {@value #NAME}: a {@code CLIENT} span per attempt at one provider, the child of
 * the span current when the attempt starts, with {@code server.address} and {@code server.port};
 * its context goes to the provider in the call's attachments (W3C {@code traceparent} and
 * {@code tracestate} with the default propagators), replacing any the call carried. Right inside
 * the context filter. Traces only once {@link WeftTelemetry} is installed on the director; before
 * that a call costs one volatile read. Remove it with {@code filter=-tracing-attempt}. Thread-safe.
 */
@Activate(group = FilterChain.CONSUMER, order = -9_500)
public final class AttemptTracingFilter implements ChainScopedFilter, ExtensionDirectorAware {

    /** The extension name. */
    public static final String NAME = "tracing-attempt";

    private volatile ExtensionDirector director;

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        this.director = Objects.requireNonNull(director, "director");
    }

    @Override
    public Filter forChain(Invoker<?> invoker) {
        URL url = invoker.getUrl();
        return new Chain(TraceHub.of(director), new ServiceSpans(invoker.getInterface()),
                url == null ? null : url.getHost(), url == null ? 0 : url.getPort());
    }

    /** The filter of one referred provider. */
    private static final class Chain implements Filter {

        private final TraceHub hub;
        private final ServiceSpans spans;
        private final String host;
        private final int port;

        Chain(TraceHub hub, ServiceSpans spans, String host, int port) {
            this.hub = hub;
            this.spans = spans;
            this.host = host;
            this.port = port;
        }

        @Override
        public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
            WeftTelemetry telemetry = hub.telemetry();
            if (telemetry == null) {
                return next.invoke(invocation);
            }
            var builder = spans.builder(telemetry, invocation.getMethodName(), SpanKind.CLIENT);
            if (host != null) {
                builder.setAttribute(ServiceSpans.SERVER_ADDRESS, host);
            }
            if (port > 0) {
                builder.setAttribute(ServiceSpans.SERVER_PORT, (long) port);
            }
            Span span = builder.startSpan();
            Context attempt = Context.current().with(span);
            RpcInvocation carrier = Attachments.writable(invocation);
            telemetry.propagator().inject(attempt, carrier, Attachments.SETTER);
            Result result;
            Scope scope = attempt.makeCurrent();
            try {
                result = next.invoke(carrier);
            } catch (RuntimeException | Error e) {
                ServiceSpans.endThrown(span, e);
                throw e;
            } finally {
                scope.close();
            }
            ServiceSpans.end(span, result);
            return result;
        }
    }
}
