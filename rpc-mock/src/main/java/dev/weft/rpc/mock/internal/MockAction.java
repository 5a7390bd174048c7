package dev.weft.rpc.mock.internal;

import java.util.Objects;

/**
 * What a mock does once it answers: one node of the parsed {@link MockExpression}.
 *
 * <p>Immutable. {@code position} is the 0-based index in the expression text where the action's
 * argument (or the action itself, when it has none) starts; error messages report it 1-based as a
 * column.
 */
public sealed interface MockAction permits MockAction.Return, MockAction.Throw, MockAction.UseMockClass {

    /** Where this action's argument starts in the expression (0-based). */
    int position();

    /** {@code return}, {@code return <value>}. */
    record Return(MockValue value, int position) implements MockAction {
        public Return {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return "return " + value;
        }
    }

    /**
     * {@code throw} ({@code exceptionClass} is {@code null}: an {@code RpcException}) or
     * {@code throw <class>}.
     */
    record Throw(String exceptionClass, int position) implements MockAction {
        @Override
        public String toString() {
            return exceptionClass == null ? "throw" : "throw " + exceptionClass;
        }
    }

    /**
     * Answer through an implementation of the service interface: {@code mockClass} is
     * {@code null} for {@code default}/{@code true}/{@code fail}/{@code force}
     * ({@code <Interface>Mock}), else the class name as written.
     */
    record UseMockClass(String mockClass, int position) implements MockAction {
        @Override
        public String toString() {
            return mockClass == null ? "default" : mockClass;
        }
    }
}
