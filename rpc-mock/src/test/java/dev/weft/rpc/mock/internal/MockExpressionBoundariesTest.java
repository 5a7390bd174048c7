package dev.weft.rpc.mock.internal;

import com.fasterxml.jackson.databind.node.IntNode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The edges of the mock language: which prefixes are taken for a mode, where class names and
 * numbers start and end, which escapes count as "encoded twice", and the size limits exactly at
 * their bounds.
 */
class MockExpressionBoundariesTest {

    private static final String ACTIONS = "return [value], throw [class], default, true, fail, force or a fully qualified"
            + " mock class name";

    private static MockExpression parse(String text) {
        return MockExpressionParser.parse("mock", text).orElseThrow();
    }

    private static String error(String text) {
        try {
            MockExpressionParser.parse("mock", text);
        } catch (MockSyntaxException e) {
            return e.getMessage();
        }
        throw new AssertionError("expected a MockSyntaxException for " + text);
    }

    // ---------------------------------------------------------------- mode prefixes

    @ParameterizedTest
    @ValueSource(strings = {"az", "AZ", "Qz", "zz"})
    void wordOfLettersBeforeAColon_isReportedAsAnUnknownPrefix(String prefix) {
        assertThat(error(prefix + ":return null")).isEqualTo("mock: " + prefix + ":return null (expected: force: or fail:"
                + " as prefix, or " + ACTIONS + "; at column 1: found '" + prefix + ":')");
    }

    @Test
    void unknownPrefix_withoutWhitespaceAfterIt_isStillAPrefix() {
        assertThat(error("forc:default")).isEqualTo("mock: forc:default (expected: force: or fail: as prefix, or "
                + ACTIONS + "; at column 1: found 'forc:'; did you mean 'force'?)");
    }

    @ParameterizedTest
    @ValueSource(strings = {"a`", "a{", "a@", "a[", "x9"})
    void wordWithOtherCharactersBeforeAColon_isAnUnknownAction(String prefix) {
        assertThat(error(prefix + ":return null")).isEqualTo("mock: " + prefix + ":return null (expected: " + ACTIONS
                + "; at column 1: found '" + prefix + ":return')");
    }

    @Test
    void leadingColon_isAnUnknownAction() {
        assertThat(error(":return")).isEqualTo("mock: :return (expected: " + ACTIONS
                + "; at column 1: found ':return'; did you mean 'return'?)");
    }

    @Test
    void colonInsideAValue_isNoPrefix() {
        assertThat(((MockAction.Return) parse("return 'a:b'").action()).value()).isEqualTo(new MockValue.Text("a:b", true));
    }

    @Test
    void modeWithoutMock_isNotDisabled_whenAnActionFollows() {
        assertThat(MockExpressionParser.isDisabled("force:return null")).isFalse();
        assertThat(MockExpressionParser.isDisabled("fail:false")).isTrue();
    }

    // ---------------------------------------------------------------- class names

    @Test
    void mockClassStartingWithADigit_isAnUnknownAction() {
        assertThat(error("1abc.Def")).isEqualTo("mock: 1abc.Def (expected: " + ACTIONS + "; at column 1: found '1abc.Def')");
    }

    @Test
    void throwClassStartingWithADigit_pointsAtTheFirstCharacter() {
        assertThat(error("throw 1abc.Def")).isEqualTo("mock: throw 1abc.Def (expected: an exception class name after"
                + " 'throw' (Java identifiers separated by '.'); at column 7: found '1')");
    }

    @Test
    void throwClassEndingWithADot_foundTheEnd() {
        assertThat(error("throw com.example.")).isEqualTo("mock: throw com.example. (expected: an exception class name"
                + " after 'throw' (Java identifiers separated by '.'); at column 19: found the end)");
    }

    @Test
    void throwClassStartingWithADot_pointsAtIt() {
        assertThat(error("throw .Boom")).endsWith("at column 7: found '.')");
    }

    @Test
    void throwClassWithAnIgnorableCharacter_pointsAtIt() {
        assertThat(error("throw com.Bo\u0001om")).endsWith("at column 13: found '\u0001')");
    }

    @Test
    void classNameOfExactly512Characters_isAccepted_513IsNot() {
        String name512 = "a." + "B".repeat(510);
        assertThat(parse("throw " + name512).action()).isEqualTo(new MockAction.Throw(name512, 6));
        assertThat(error("throw " + name512 + "C"))
                .contains("(expected: an exception class name after 'throw' of at most 512 characters; at column 7: got 513)");
    }

    // ---------------------------------------------------------------- values

    @ParameterizedTest
    @ValueSource(ints = {0, 9})
    void valueStartingWithADigit_isAJsonNumber(int digit) {
        assertThat(((MockAction.Return) parse("return " + digit).action()).value())
                .isEqualTo(new MockValue.Json(IntNode.valueOf(digit), String.valueOf(digit)));
    }

    @Test
    void multiLineJson_errorColumnCountsCharacters() {
        // the value starts at column 8; the bad token is 7 characters into it, across two line breaks
        assertThat(error("return [1,\n2,\nx]")).startsWith("mock: return [1,\n2,\nx] (expected: a JSON array; at column 15: ");
    }

    @Test
    void jsonValue_nodeIsACopy() {
        MockValue.Json value = (MockValue.Json) ((MockAction.Return) parse("return [1]").action()).value();
        ((com.fasterxml.jackson.databind.node.ArrayNode) value.node()).add(2);
        assertThat(value.node().size()).isEqualTo(1);
        assertThat(value).hasToString("[1]");
    }

    @Test
    void values_renderAsWritten() {
        assertThat(parse("return 'a b'")).hasToString("fail:return 'a b'");
        assertThat(parse("return word")).hasToString("fail:return word");
        assertThat(parse("force:return empty")).hasToString("force:return empty");
    }

    // ---------------------------------------------------------------- encoded twice

    @ParameterizedTest
    @CsvSource({
        "a.Mock%30, a.Mock0",
        "a.Mock%39, a.Mock9",
        "a.Mock%6a, a.Mockj",
        "a.Mock%6f, a.Mocko",
        "a.Mock%4A, a.MockJ",
        "a.Mock%4F, a.MockO",
        "a.Mock%5f, a.Mock_",
    })
    void hexEscapes_everyHexDigit_areDecodedOnce(String written, String decoded) {
        assertThat(parse("force:" + written).action()).isEqualTo(new MockAction.UseMockClass(decoded, 6));
    }

    @ParameterizedTest
    @ValueSource(strings = {"a.Mock%4G", "a.Mock%4g", "a.Mock%4/", "a.Mock%4:", "a.Mock%4@", "a.Mock%4`"})
    void percentWithoutTwoHexDigits_isNotAnEscape(String written) {
        assertThat(error("force:" + written)).contains("(expected: " + ACTIONS + "; at column 7: found '" + written + "')");
    }

    @ParameterizedTest
    @ValueSource(strings = {"fail:return%", "fail:return%2"})
    void percentAtTheEnd_isNotAnEscape(String text) {
        assertThat(error(text)).startsWith("mock: " + text + " (expected: " + ACTIONS + "; at column 6: found '");
    }

    @Test
    void plusWithAnInvalidEscape_isLeftAsWritten() {
        assertThat(error("return+`5%!`")).isEqualTo("mock: return+`5%!` (expected: " + ACTIONS
                + "; at column 1: found 'return+`5%!`')");
    }

    // ---------------------------------------------------------------- size limit

    @Test
    void expressionOfExactlyTheLimit_isAccepted_oneMoreIsNot() {
        String text = "return '" + "a".repeat(MockExpressionParser.MAX_EXPRESSION_LENGTH - 9) + "'";
        assertThat(text).hasSize(MockExpressionParser.MAX_EXPRESSION_LENGTH);
        assertThat(parse(text).action()).isInstanceOf(MockAction.Return.class);
        assertThat(error(text + " ")).endsWith("(expected: at most 16384 characters; got 16385)");
    }

    @Test
    void expressionOf120Characters_isQuotedWhole_121IsAbbreviated() {
        String text120 = "return '" + "a".repeat(112);
        assertThat(error(text120)).startsWith("mock: " + text120 + " (expected: a closing '");
        String text121 = text120 + "a";
        assertThat(error(text121)).startsWith("mock: " + text121.substring(0, 100) + "... (121 characters) (expected:");
    }

    @Test
    void throwClassWithAnInvalidCharacterInside_pointsAtIt() {
        assertThat(error("throw com.Bo-om")).endsWith("at column 13: found '-')");
    }

    @Test
    void unterminatedJsonString_isReportedAsAJsonString() {
        assertThat(error("return \"abc")).startsWith("mock: return \"abc (expected: a JSON string; at column ");
    }
}
