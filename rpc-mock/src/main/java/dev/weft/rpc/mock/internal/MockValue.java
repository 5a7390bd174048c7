package dev.weft.rpc.mock.internal;

import com.fasterxml.jackson.databind.JsonNode;

import java.util.Objects;

/**
 * The value after {@code return}: immutable, already parsed, not yet converted to any type.
 * Conversion to a method's return type happens when the expression is checked against the
 * service interface.
 */
public sealed interface MockValue permits MockValue.Null, MockValue.Empty, MockValue.Json, MockValue.Text {

    /** {@code return} alone or {@code return null}. */
    record Null() implements MockValue {
        @Override
        public String toString() {
            return "null";
        }
    }

    /** {@code return empty}: the empty value of the declared return type. */
    record Empty() implements MockValue {
        @Override
        public String toString() {
            return "empty";
        }
    }

    /**
     * A JSON literal: {@code true}/{@code false}, a number, a double-quoted string, an object or
     * an array. The tree is never handed out mutable: {@link #tree()} returns a deep copy.
     */
    record Json(JsonNode node, String text) implements MockValue {
        public Json {
            Objects.requireNonNull(node, "node");
            Objects.requireNonNull(text, "text");
            node = node.deepCopy();
        }

        /** A copy of the parsed tree. */
        public JsonNode tree() {
            return node.deepCopy();
        }

        @Override
        public JsonNode node() {
            return tree();
        }

        @Override
        public String toString() {
            return text;
        }
    }

    /**
     * Text taken literally: a bare word ({@code quoted=false}), or a string in single quotes or
     * backticks ({@code quoted=true}). Converts to a {@code String}, or to an enum constant by name.
     */
    record Text(String value, boolean quoted) implements MockValue {
        public Text {
            Objects.requireNonNull(value, "value");
        }

        @Override
        public String toString() {
            return quoted ? "'" + value + "'" : value;
        }
    }
}
