package dev.weft.rpc.testing;

import dev.weft.rpc.common.RpcInvocation;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Invocations for tests, built from a service method so that signature and return type are real.
 * They are {@link RpcInvocation}s, so a test can add attachments ({@code setAttachment}). Stateless.
 */
public final class Invocations {

    private Invocations() {
    }

    /**
     * A call of {@code service}'s method {@code method} with {@code args}.
     *
     * @throws IllegalArgumentException when {@code service} has no public method of that name taking
     *         that many arguments, or several (naming the methods it has)
     */
    public static RpcInvocation of(Class<?> service, String method, Object... args) {
        Objects.requireNonNull(service, "service");
        Objects.requireNonNull(method, "method");
        Object[] arguments = args == null ? new Object[] {null} : args;
        List<Method> matches = new ArrayList<>();
        TreeSet<String> available = new TreeSet<>();
        for (Method candidate : service.getMethods()) {
            available.add(candidate.getName() + "/" + candidate.getParameterCount());
            if (candidate.getName().equals(method) && candidate.getParameterCount() == arguments.length) {
                matches.add(candidate);
            }
        }
        if (matches.size() != 1) {
            throw new IllegalArgumentException("method: " + method + "/" + arguments.length + " of " + service.getName()
                    + (matches.isEmpty() ? " (expected: one of " : " is overloaded (expected: a unique name and arity among ")
                    + available + ")");
        }
        return new RpcInvocation(matches.get(0), arguments.clone());
    }

    /** A call of a method named {@code method} with no parameters, when only the name matters. */
    public static RpcInvocation named(String method) {
        Objects.requireNonNull(method, "method");
        return new RpcInvocation(method, new Class<?>[0], new Object[0]);
    }
}
