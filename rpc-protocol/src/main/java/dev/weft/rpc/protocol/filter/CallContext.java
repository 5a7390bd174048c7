package dev.weft.rpc.protocol.filter;

import com.google.common.collect.ImmutableMap;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The attachments of the current thread's call, for one {@link ExtensionDirector}: what calls
 * made on this thread carry to their providers, and, inside a provider, what the caller sent.
 *
 * <p>Consumer: {@code try (CallContext.Scope s = context.with("trace-id", id)) { service.call(); }}
 * sends {@code trace-id} with every call made in the block (the {@code context} filter copies the
 * thread's attachments onto each invocation). Provider: while the service runs, the
 * {@code server-context} filter makes the caller's attachments this thread's, so
 * {@code context.get("trace-id")} reads them and nested calls carry them on.
 *
 * <p>Thread-safe; each thread sees only its own attachments, held as an immutable map. A scope
 * must be closed on the thread that opened it; closing restores what was there before.
 */
public final class CallContext {

    private final ThreadLocal<ImmutableMap<String, String>> current = new ThreadLocal<>();

    CallContext() {
    }

    /** The call context of {@code director} (the one its {@code context} filter uses). */
    public static CallContext of(ExtensionDirector director) {
        Objects.requireNonNull(director, "director");
        Filter filter = director.getExtensionLoader(Filter.class).getExtension(ContextFilter.NAME, false);
        return ((ContextFilter) filter).callContext();
    }

    /** This thread's attachments; empty when none. */
    public Map<String, String> attachments() {
        ImmutableMap<String, String> attachments = current.get();
        return attachments == null ? ImmutableMap.of() : attachments;
    }

    /** One attachment of this thread, or {@code null}. */
    public String get(String key) {
        return attachments().get(Objects.requireNonNull(key, "key"));
    }

    /**
     * {@code invocation} with this thread's attachments added where it has none of that key
     * ({@value ContextFilter#APPLICATION_KEY} excepted, which the {@code context} filter sets from
     * the consumer URL): what that filter would add on this thread, taken now. A caller whose call
     * may run on other threads (a cluster forking it, or retrying it later) takes it first, so the
     * call carries the caller's attachments wherever the filter then runs. Returns
     * {@code invocation} itself when this thread has none.
     */
    public Invocation capture(Invocation invocation) {
        Map<String, String> fromThread = attachments();
        if (fromThread.isEmpty()) {
            return invocation;
        }
        Map<String, String> merged = new LinkedHashMap<>(fromThread);
        merged.remove(ContextFilter.APPLICATION_KEY);
        merged.putAll(invocation.getAttachments());
        return ContextFilter.withAttachments(invocation, merged);
    }

    /** Adds (or replaces) one attachment on this thread until the scope closes. */
    public Scope with(String key, String value) {
        return with(Map.of(Objects.requireNonNull(key, "key"), Objects.requireNonNull(value, "value")));
    }

    /** Adds (or replaces) {@code attachments} on this thread until the scope closes. */
    public Scope with(Map<String, String> attachments) {
        Map<String, String> merged = new LinkedHashMap<>(attachments());
        merged.putAll(attachments);
        return replaceWith(merged);
    }

    /** Makes {@code attachments} this thread's, exactly, until the scope closes. */
    Scope replaceWith(Map<String, String> attachments) {
        ImmutableMap<String, String> previous = current.get();
        ImmutableMap<String, String> next = ImmutableMap.copyOf(attachments);
        if (next.isEmpty()) {
            current.remove();
        } else {
            current.set(next);
        }
        return () -> {
            if (previous == null) {
                current.remove();
            } else {
                current.set(previous);
            }
        };
    }

    /** Restores the attachments a {@code with} call replaced. */
    @FunctionalInterface
    public interface Scope extends AutoCloseable {
        @Override
        void close();
    }
}
