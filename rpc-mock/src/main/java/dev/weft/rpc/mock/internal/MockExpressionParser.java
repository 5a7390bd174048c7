package dev.weft.rpc.mock.internal;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.BooleanNode;
import dev.weft.rpc.common.NameSuggestions;

import java.io.IOException;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;
import java.util.Optional;

/**
 * Parses the value of a {@code mock} URL key into a {@link MockExpression}.
 *
 * <p>Grammar, after surrounding whitespace is dropped:
 * <pre>
 * expression := "force" | "fail" | [ ("force:" | "fail:") ] action
 * action     := "return" [ value ] | "throw" [ className ]
 *             | "default" | "true" | "fail" | "force" | className
 * value      := "null" | "empty" | "true" | "false" | number | "…" | '…' | `…`
 *             | JSON object | JSON array | bareWord
 * </pre>
 * An absent, empty or {@code false} expression means no mock, and so do {@code force:false} and
 * {@code fail:false} (a mode with no mock: the only reading is "off"). An expression without whitespace
 * that still holds percent-escapes or {@code +} (it was URL-encoded twice, e.g.
 * {@code force%3Areturn+null}) is decoded once more first; positions in errors refer to the
 * decoded text. Expressions longer than {@value #MAX_EXPRESSION_LENGTH} characters and JSON
 * nested deeper than {@value MockJson#MAX_NESTING_DEPTH} levels are rejected; JSON object keys
 * starting with {@code @} (type ids such as {@code @class}) are rejected.
 *
 * <p>Stateless and thread-safe. Errors are {@link MockSyntaxException}s naming the key,
 * the expression, the column and what was expected.
 */
public final class MockExpressionParser {

    /** The longest expression accepted, in characters. */
    public static final int MAX_EXPRESSION_LENGTH = 16 * 1024;

    /** The longest class name accepted, in characters. */
    static final int MAX_CLASS_NAME_LENGTH = 512;

    private static final String ACTIONS = "return [value], throw [class], default, true, fail, force or a fully qualified mock class name";

    private static final String[] KEYWORDS = {"return", "throw", "default", "true", "fail", "force", "false"};

    private MockExpressionParser() {
    }

    /**
     * Parses {@code expression}, the value of URL key {@code key}.
     *
     * @return the expression, or empty when {@code expression} is {@code null}, blank or {@code false}
     * @throws MockSyntaxException when the expression is malformed
     */
    public static Optional<MockExpression> parse(String key, String expression) {
        Objects.requireNonNull(key, "key");
        if (expression == null) {
            return Optional.empty();
        }
        if (expression.length() > MAX_EXPRESSION_LENGTH) {
            throw new MockSyntaxException(key, MockMessages.format(key, expression, -1,
                    "at most " + MAX_EXPRESSION_LENGTH + " characters", "got " + expression.length()));
        }
        String text = decodeIfEncodedTwice(expression);
        int start = skipWhitespace(text, 0);
        int end = trimEnd(text);
        if (start >= end || isOff(text.substring(start, end))) {
            return Optional.empty();
        }
        return Optional.of(new Cursor(key, text, start, end).expression());
    }

    /** Whether {@code expression} turns mocking off (absent, blank, {@code false}, {@code force:false} or {@code fail:false}). */
    public static boolean isDisabled(String expression) {
        if (expression == null) {
            return true;
        }
        String trimmed = expression.strip();
        return trimmed.isEmpty() || isOff(trimmed);
    }

    /** {@code false}, optionally after {@code force:} or {@code fail:}; {@code text} has no surrounding whitespace. */
    private static boolean isOff(String text) {
        String action = text;
        if (text.startsWith("force:")) {
            action = text.substring("force:".length()).strip();
        } else if (text.startsWith("fail:")) {
            action = text.substring("fail:".length()).strip();
        }
        return "false".equalsIgnoreCase(action);
    }

    static String decodeIfEncodedTwice(String text) {
        boolean escaped = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (Character.isWhitespace(c)) {
                return text;
            }
            if (c == '+' || (c == '%' && i + 2 < text.length() && isHex(text.charAt(i + 1)) && isHex(text.charAt(i + 2)))) {
                escaped = true;
            }
        }
        if (!escaped) {
            return text;
        }
        try {
            return URLDecoder.decode(text, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException e) {
            return text;
        }
    }

    private static boolean isHex(char c) {
        return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
    }

    private static int skipWhitespace(String text, int from) {
        int i = from;
        while (i < text.length() && Character.isWhitespace(text.charAt(i))) {
            i++;
        }
        return i;
    }

    private static int trimEnd(String text) {
        int end = text.length();
        while (end > 0 && Character.isWhitespace(text.charAt(end - 1))) {
            end--;
        }
        return end;
    }

    /**
     * {@code "; did you mean 'return'?"} when {@code word} is a likely typo of a keyword, else
     * {@code ""}; never suggests the word itself.
     */
    static String suggestion(String word) {
        String lower = word.toLowerCase(java.util.Locale.ROOT);
        for (String keyword : KEYWORDS) {
            if (keyword.equals(word)) {
                return "false".equals(word) ? "; 'false' turns mocking off only on its own, or as force:false or fail:false" : "";
            }
        }
        for (String keyword : KEYWORDS) {
            if (lower.length() <= 12 && NameSuggestions.distance(lower, keyword) <= 2) {
                return "; did you mean '" + keyword + "'?";
            }
        }
        return "";
    }

    /** Validates a Java binary class name; returns the index of the first bad character, or -1. */
    static int badClassNameCharacter(String name) {
        boolean segmentStart = true;
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            if (c == '.') {
                if (segmentStart) {
                    return i;
                }
                segmentStart = true;
            } else if (segmentStart ? Character.isJavaIdentifierStart(c) : Character.isJavaIdentifierPart(c)) {
                if (Character.isIdentifierIgnorable(c)) {
                    return i;
                }
                segmentStart = false;
            } else {
                return i;
            }
        }
        return segmentStart ? name.length() : -1;
    }

    /** One parse over {@code text[start, end)}. */
    private static final class Cursor {
        private final String key;
        private final String text;
        private final int end;
        private int pos;

        Cursor(String key, String text, int start, int end) {
            this.key = key;
            this.text = text;
            this.pos = start;
            this.end = end;
        }

        MockExpression expression() {
            String whole = text.substring(pos, end);
            if (whole.equals("force")) {
                return new MockExpression(true, new MockAction.UseMockClass(null, pos), text);
            }
            if (whole.equals("fail")) {
                return new MockExpression(false, new MockAction.UseMockClass(null, pos), text);
            }
            boolean force = false;
            if (text.startsWith("force:", pos)) {
                force = true;
                pos += "force:".length();
            } else if (text.startsWith("fail:", pos)) {
                pos += "fail:".length();
            } else {
                int colon = text.indexOf(':', pos);
                int space = indexOfWhitespace(pos);
                if (colon > pos && (space < 0 || colon < space) && isLetters(pos, colon)) {
                    throw error(pos, "force: or fail: as prefix, or " + ACTIONS,
                            "found '" + text.substring(pos, colon + 1) + "'" + suggestion(text.substring(pos, colon)));
                }
            }
            pos = skipWhitespace(text, pos);
            if (pos >= end) {
                throw error(pos, ACTIONS + " after '" + text.substring(0, pos).strip() + "'", "found nothing");
            }
            return new MockExpression(force, action(), text);
        }

        private MockAction action() {
            int wordStart = pos;
            int wordEnd = indexOfWhitespace(pos);
            if (wordEnd < 0) {
                wordEnd = end;
            }
            String word = text.substring(wordStart, wordEnd);
            int next = skipWhitespace(text, wordEnd);
            switch (word) {
                case "return":
                    if (next >= end) {
                        return new MockAction.Return(new MockValue.Null(), wordStart);
                    }
                    pos = next;
                    return new MockAction.Return(value(), next);
                case "throw":
                    if (next >= end) {
                        return new MockAction.Throw(null, wordStart);
                    }
                    pos = next;
                    return new MockAction.Throw(className("an exception class name after 'throw'"), next);
                case "default":
                case "true":
                case "fail":
                case "force":
                    expectEnd(wordEnd, "nothing after '" + word + "'");
                    return new MockAction.UseMockClass(null, wordStart);
                default:
                    if (badClassNameCharacter(word) >= 0 || next < end || word.indexOf('.') < 0) {
                        throw error(wordStart, ACTIONS, "found '"
                                + MockMessages.abbreviate(word) + "'" + suggestion(word));
                    }
                    return new MockAction.UseMockClass(className("a mock class name"), wordStart);
            }
        }

        private String className(String expected) {
            int nameEnd = indexOfWhitespace(pos);
            if (nameEnd >= 0 && nameEnd < end) {
                throw error(nameEnd, expected + " with nothing after it", "found '"
                        + MockMessages.abbreviate(text.substring(nameEnd, end).strip()) + "'");
            }
            String name = text.substring(pos, end);
            if (name.length() > MAX_CLASS_NAME_LENGTH) {
                throw error(pos, expected + " of at most " + MAX_CLASS_NAME_LENGTH + " characters",
                        "got " + name.length());
            }
            int bad = badClassNameCharacter(name);
            if (bad >= 0) {
                throw error(pos + bad, expected + " (Java identifiers separated by '.')",
                        bad < name.length() ? "found '" + name.charAt(bad) + "'" : "found the end");
            }
            return name;
        }

        private MockValue value() {
            char first = text.charAt(pos);
            String rest = text.substring(pos, end);
            switch (first) {
                case '\'':
                case '`':
                    return literalString(first);
                case '"':
                case '{':
                case '[':
                    return json(rest);
                default:
                    break;
            }
            if (first == '-' || (first >= '0' && first <= '9')) {
                return json(rest);
            }
            int space = indexOfWhitespace(pos);
            if (space >= 0 && space < end) {
                throw error(space, "a single word, or text in quotes (\"…\", '…' or `…`)",
                        "found more after '" + MockMessages.abbreviate(text.substring(pos, space)) + "'");
            }
            switch (rest) {
                case "null":
                    return new MockValue.Null();
                case "empty":
                    return new MockValue.Empty();
                case "true":
                    return JsonLiterals.bool(true, rest);
                case "false":
                    return JsonLiterals.bool(false, rest);
                default:
                    return new MockValue.Text(rest, false);
            }
        }

        private MockValue literalString(char quote) {
            int close = text.indexOf(quote, pos + 1);
            if (close < 0 || close >= end) {
                throw error(pos, "a closing " + quote + " for the string starting here", "found the end");
            }
            expectEnd(close + 1, "nothing after the closing " + quote);
            return new MockValue.Text(text.substring(pos + 1, close), true);
        }

        private MockValue json(String json) {
            return JsonLiterals.read(this, json);
        }

        private String jsonExpectation(char first) {
            switch (first) {
                case '"':
                    return "a JSON string";
                case '{':
                    return "a JSON object";
                case '[':
                    return "a JSON array";
                default:
                    return "a number";
            }
        }

        private void expectEnd(int from, String expected) {
            int next = skipWhitespace(text, from);
            if (next < end) {
                throw error(next, expected, "found '" + MockMessages.abbreviate(text.substring(next, end)) + "'");
            }
        }

        private int indexOfWhitespace(int from) {
            for (int i = from; i < end; i++) {
                if (Character.isWhitespace(text.charAt(i))) {
                    return i;
                }
            }
            return -1;
        }

        private boolean isLetters(int from, int to) {
            for (int i = from; i < to; i++) {
                char c = text.charAt(i);
                if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) {
                    return false;
                }
            }
            return true;
        }

        private MockSyntaxException error(int position, String expected, String detail) {
            return new MockSyntaxException(key, MockMessages.format(key, text, position, expected, detail));
        }
    }

    /**
     * Reads JSON literals with its own mapper. Kept apart from {@link Cursor} so that Jackson is
     * neither loaded (by the verifier) nor initialised until an expression holds a JSON literal:
     * building the mapper loads a few hundred classes.
     */
    private static final class JsonLiterals {
        static final ObjectMapper MAPPER = MockJson.newMapper();

        private JsonLiterals() {
        }

        static MockValue bool(boolean value, String text) {
            return new MockValue.Json(BooleanNode.valueOf(value), text);
        }

        static MockValue read(Cursor cursor, String json) {
            try (JsonParser parser = MAPPER.createParser(json)) {
                while (parser.nextToken() != null) {
                    if (parser.currentToken() == JsonToken.FIELD_NAME && parser.currentName().startsWith("@")) {
                        throw cursor.error(cursor.pos + offset(cursor, parser.currentTokenLocation()),
                                "JSON without type ids (keys starting with '@')",
                                "found key '" + MockMessages.abbreviate(parser.currentName()) + "'");
                    }
                }
                JsonNode node = MAPPER.readTree(json);
                return new MockValue.Json(node, json);
            } catch (JsonProcessingException e) {
                JsonLocation location = e.getLocation();
                int at = location == null ? 0 : offset(cursor, location);
                throw cursor.error(cursor.pos + at, cursor.jsonExpectation(json.charAt(0)), e.getOriginalMessage());
            } catch (IOException e) {
                throw cursor.error(cursor.pos, cursor.jsonExpectation(json.charAt(0)), e.toString());
            }
        }

        private static int offset(Cursor cursor, JsonLocation location) {
            long chars = location.getCharOffset();
            if (chars >= 0) {
                return (int) Math.min(chars, cursor.end - cursor.pos);
            }
            return Math.max(0, location.getColumnNr() - 1);
        }
    }
}
