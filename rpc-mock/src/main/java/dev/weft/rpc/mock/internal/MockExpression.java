package dev.weft.rpc.mock.internal;

import java.util.Objects;

/**
 * A parsed mock expression such as {@code force:return null}: the mode ({@code force}: the mock
 * answers every call; else it answers failed calls) and the
 * {@link MockAction action}, with the text it came from. Immutable and thread-safe.
 *
 * <p>Parse with {@link MockExpressionParser#parse(String, String)}.
 */
public record MockExpression(boolean force, MockAction action, String text) {

    public MockExpression {
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(text, "text");
    }

    @Override
    public String toString() {
        return (force ? "force:" : "fail:") + action;
    }
}
