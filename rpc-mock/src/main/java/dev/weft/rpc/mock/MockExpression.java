package dev.weft.rpc.mock;

import java.util.Objects;

/**
 * A parsed mock expression such as {@code force:return null}: the {@link MockMode mode} and the
 * {@link MockAction action}, with the text it came from. Immutable and thread-safe.
 *
 * <p>Parse with {@link MockExpressionParser#parse(String, String)}.
 */
public record MockExpression(MockMode mode, MockAction action, String text) {

    public MockExpression {
        Objects.requireNonNull(mode, "mode");
        Objects.requireNonNull(action, "action");
        Objects.requireNonNull(text, "text");
    }

    @Override
    public String toString() {
        return mode.name().toLowerCase(java.util.Locale.ROOT) + ":" + action;
    }
}
