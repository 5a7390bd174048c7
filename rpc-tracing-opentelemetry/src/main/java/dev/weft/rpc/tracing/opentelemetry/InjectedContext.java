package dev.weft.rpc.tracing.opentelemetry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.RpcInvocation;
import io.opentelemetry.context.Context;
import io.opentelemetry.context.ContextKey;
import io.opentelemetry.context.propagation.TextMapPropagator;
import io.opentelemetry.context.propagation.TextMapSetter;

import java.util.ArrayList;
import java.util.List;

/**
 * The fields a propagator wrote into one call's attachments, kept in the call's {@link Context}.
 * An attempt whose current context holds the very fields its invocation carries runs under that
 * call's context and takes it as is, with the call's span as a local parent, instead of parsing
 * the attachments back; any other attempt (one started on another thread, say) extracts them.
 * Written by one thread before it is shared through the context; then immutable.
 */
final class InjectedContext {

    /** Where the call's context keeps what it injected. */
    static final ContextKey<InjectedContext> KEY = ContextKey.named("weft-injected-call-context");

    private static final TextMapSetter<InjectedContext> SETTER = (injected, field, value) -> {
        if (injected != null) {
            injected.carrier.setAttachment(field, value);
            injected.fieldsAndValues.add(field);
            injected.fieldsAndValues.add(value);
        }
    };

    private final RpcInvocation carrier;
    /** Field, value, field, value... in the order written. */
    private final List<String> fieldsAndValues = new ArrayList<>(4);

    private InjectedContext(RpcInvocation carrier) {
        this.carrier = carrier;
    }

    /**
     * Injects {@code context} into {@code carrier}'s attachments with {@code propagator}, and returns
     * {@code context} holding what was injected.
     */
    static Context inject(TextMapPropagator propagator, Context context, RpcInvocation carrier) {
        InjectedContext injected = new InjectedContext(carrier);
        propagator.inject(context, injected, SETTER);
        return context.with(KEY, injected);
    }

    /**
     * The context of the call {@code invocation} belongs to: {@code current} when it holds the fields
     * the invocation carries, else those fields extracted with {@code propagator} over {@code current}.
     */
    static Context callOf(TextMapPropagator propagator, Context current, Invocation invocation) {
        InjectedContext injected = current.get(KEY);
        return injected != null && injected.carriedBy(invocation)
                ? current
                : propagator.extract(current, invocation, Attachments.GETTER);
    }

    /** Whether {@code invocation} carries every field this wrote, with the same value (and at least one). */
    private boolean carriedBy(Invocation invocation) {
        for (int i = 0; i < fieldsAndValues.size(); i += 2) {
            if (!fieldsAndValues.get(i + 1).equals(invocation.getAttachment(fieldsAndValues.get(i)))) {
                return false;
            }
        }
        return !fieldsAndValues.isEmpty();
    }
}
