package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.protocol.ErrorType;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * How the spans of one service are named and tagged: {@code service/method}, with the method one
 * the service interface declares or {@value #OTHER_METHOD} (a caller cannot invent names), and the
 * attributes every Weft span carries. Immutable and thread-safe.
 */
final class ServiceSpans {

    static final AttributeKey<String> RPC_SYSTEM = AttributeKey.stringKey("rpc.system");
    static final AttributeKey<String> RPC_SERVICE = AttributeKey.stringKey("rpc.service");
    static final AttributeKey<String> RPC_METHOD = AttributeKey.stringKey("rpc.method");
    static final AttributeKey<String> SERVER_ADDRESS = AttributeKey.stringKey("server.address");
    static final AttributeKey<Long> SERVER_PORT = AttributeKey.longKey("server.port");
    static final AttributeKey<String> ERROR_TYPE = AttributeKey.stringKey("error.type");
    static final AttributeKey<Long> ATTEMPT = AttributeKey.longKey("weft.attempt");
    static final AttributeKey<Boolean> MOCKED = AttributeKey.booleanKey("weft.mocked");
    static final String SYSTEM_WEFT = "weft";
    /** The method name of calls to a method the service interface does not declare. */
    static final String OTHER_METHOD = "other";

    private final String service;
    private final Set<String> methods;

    ServiceSpans(Class<?> type) {
        this.service = type == null ? "unknown" : type.getName();
        this.methods = type == null ? Set.of() : Arrays.stream(type.getMethods())
                .filter(method -> !Modifier.isStatic(method.getModifiers()))
                .map(Method::getName)
                .collect(Collectors.toUnmodifiableSet());
    }

    /** A span of {@code kind} for a call of {@code method}, with the RPC attributes set. */
    SpanBuilder builder(WeftTelemetry telemetry, String method, SpanKind kind) {
        String name = method != null && methods.contains(method) ? method : OTHER_METHOD;
        return telemetry.tracer().spanBuilder(service + "/" + name)
                .setSpanKind(kind)
                .setAttribute(RPC_SYSTEM, SYSTEM_WEFT)
                .setAttribute(RPC_SERVICE, service)
                .setAttribute(RPC_METHOD, name);
    }

    /**
     * Calls {@code next} with {@code context} current, and ends {@code span} when the call's result
     * ends, marking with {@code weft.mocked} whether the mock answered when {@code markMocked}.
     */
    static Result within(Context context, Span span, boolean markMocked, Invoker<?> next, Invocation invocation) {
        Scope scope = context.makeCurrent();
        try {
            return next.invoke(invocation).whenComplete((result, failure) -> {
                if (markMocked) {
                    span.setAttribute(MOCKED, result != null && result.isMocked());
                }
                end(span, result, failure);
            });
        } finally {
            scope.close();
        }
    }

    /**
     * Ends {@code span} as the call ended: with {@code result} (status ERROR with {@code error.type}
     * when it carries the service's exception) or with {@code failure} (status ERROR). The two
     * arguments are those of {@link Result#whenComplete}.
     */
    static void end(Span span, Result result, Throwable failure) {
        if (failure != null) {
            fail(span, ErrorType.ofThrown(failure), failure);
        } else {
            ErrorType type = ErrorType.of(result);
            if (type != ErrorType.NONE) {
                fail(span, type, result.getException());
            }
        }
        span.end();
    }

    private static void fail(Span span, ErrorType type, Throwable exception) {
        span.setStatus(StatusCode.ERROR, type.tag());
        span.setAttribute(ERROR_TYPE, type.tag());
        if (exception != null) {
            span.recordException(exception);
        }
    }
}
