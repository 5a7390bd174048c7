package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.protocol.ErrorType;
import io.opentelemetry.api.common.AttributeKey;
import io.opentelemetry.api.common.Attributes;
import io.opentelemetry.api.trace.Span;
import io.opentelemetry.api.trace.SpanBuilder;
import io.opentelemetry.api.trace.SpanContext;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.Scope;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.util.Arrays;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * How the spans of one chain are named and tagged: {@code service/method}, with the method one the
 * service interface declares or {@value #OTHER_METHOD} (a caller cannot invent names), and the
 * attributes every Weft span carries, plus those of the chain ({@code server.address} and
 * {@code server.port} for an attempt). Names and attributes are made once per method when the chain
 * is built. Immutable and thread-safe.
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

    private final Map<String, MethodSpans> byMethod;
    private final MethodSpans other;

    /** The spans of {@code type}'s methods (none when null), each with {@code chainAttributes} too. */
    ServiceSpans(Class<?> type, Attributes chainAttributes) {
        Objects.requireNonNull(chainAttributes, "chainAttributes");
        String service = type == null ? "unknown" : type.getName();
        this.byMethod = type == null ? Map.of() : Arrays.stream(type.getMethods())
                .filter(method -> !Modifier.isStatic(method.getModifiers()))
                .map(Method::getName)
                .distinct()
                .collect(Collectors.toUnmodifiableMap(Function.identity(), name -> new MethodSpans(service, name, chainAttributes)));
        this.other = new MethodSpans(service, OTHER_METHOD, chainAttributes);
    }

    /**
     * Starts a span of {@code kind} for a call of {@code method} under {@code parent}, with the RPC
     * attributes and, unless null, {@code weft.attempt} = {@code attempt}. The attributes go on
     * the builder, where a sampler sees them, unless the parent is a span not sampled: a
     * parent-based sampler will not record this one either, so they are set only if the span
     * records all the same.
     */
    Span start(WeftTelemetry telemetry, String method, SpanKind kind, Context parent, Long attempt) {
        MethodSpans spans = method == null ? other : byMethod.getOrDefault(method, other);
        SpanBuilder builder = telemetry.tracer().spanBuilder(spans.name).setSpanKind(kind).setParent(parent);
        SpanContext parentContext = Span.fromContext(parent).getSpanContext();
        if (!parentContext.isValid() || parentContext.isSampled()) {
            builder.setAllAttributes(spans.attributes);
            if (attempt != null) {
                builder.setAttribute(ATTEMPT, attempt);
            }
            return builder.startSpan();
        }
        Span span = builder.startSpan();
        if (span.isRecording()) {
            span.setAllAttributes(spans.attributes);
            if (attempt != null) {
                span.setAttribute(ATTEMPT, attempt);
            }
        }
        return span;
    }

    /**
     * Calls {@code next} with {@code context} current, and ends {@code span} when the call's result
     * ends, marking with {@code weft.mocked} whether the mock answered when {@code markMocked}. A
     * span that does not record is left alone (ending it does nothing).
     */
    static Result within(Context context, Span span, boolean markMocked, Invoker<?> next, Invocation invocation) {
        Scope scope = context.makeCurrent();
        try {
            Result result = next.invoke(invocation);
            if (!span.isRecording()) {
                return result;
            }
            return result.whenComplete((answer, failure) -> {
                if (markMocked) {
                    span.setAttribute(MOCKED, answer != null && answer.isMocked());
                }
                end(span, answer, failure);
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

    /** The span name and attributes of one method (or of every undeclared one). */
    private static final class MethodSpans {
        final String name;
        final Attributes attributes;

        MethodSpans(String service, String method, Attributes chainAttributes) {
            this.name = service + "/" + method;
            this.attributes = Attributes.builder()
                    .put(RPC_SYSTEM, SYSTEM_WEFT)
                    .put(RPC_SERVICE, service)
                    .put(RPC_METHOD, method)
                    .putAll(chainAttributes)
                    .build();
        }
    }
}
