package dev.weft.rpc.mock.internal;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.NullAndEmptySource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class MockExpressionParserTest {

    private static MockExpression parse(String text) {
        return MockExpressionParser.parse("mock", text).orElseThrow();
    }

    private static MockSyntaxException error(String key, String text) {
        try {
            MockExpressionParser.parse(key, text);
        } catch (MockSyntaxException e) {
            return e;
        }
        throw new AssertionError("expected a MockSyntaxException for " + text);
    }

    @ParameterizedTest
    @NullAndEmptySource
    @ValueSource(strings = {"false", "FALSE", "  false  ", "   "})
    void parse_absentEmptyOrFalse_meansNoMock(String text) {
        assertThat(MockExpressionParser.parse("mock", text)).isEmpty();
        assertThat(MockExpressionParser.isDisabled(text)).isTrue();
    }

    @Test
    void parse_returnAlone_isNull_inFailMode() {
        MockExpression e = parse("return");
        assertThat(e.force()).isFalse();
        assertThat(e.action()).isEqualTo(new MockAction.Return(new MockValue.Null(), 0));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "force:return null|FORCE",
        "fail:return null|FAIL",
        "return null|FAIL",
        "  force:   return    null  |FORCE",
    })
    void parse_prefix_setsMode(String text, String mode) {
        MockExpression e = parse(text);
        assertThat(e.force()).isEqualTo(mode.equals("FORCE"));
        assertThat(((MockAction.Return) e.action()).value()).isEqualTo(new MockValue.Null());
    }

    @Test
    void parse_returnEmpty_isEmpty() {
        assertThat(((MockAction.Return) parse("force:return empty").action()).value()).isEqualTo(new MockValue.Empty());
    }

    @Test
    void parse_booleansNumbersAndJson_areJsonTrees() {
        assertThat(json("return true")).isEqualTo(JsonNodeFactory.instance.booleanNode(true));
        assertThat(json("return false")).isEqualTo(JsonNodeFactory.instance.booleanNode(false));
        assertThat(json("return 42").asInt()).isEqualTo(42);
        assertThat(json("return -3.5").asDouble()).isEqualTo(-3.5);
        assertThat(json("return \"a \\\"quoted\\\" text\"").asText()).isEqualTo("a \"quoted\" text");
        assertThat(json("return {\"name\": \"ann\", \"age\": 3}").get("name").asText()).isEqualTo("ann");
        assertThat(json("return [1, 2, 3]").size()).isEqualTo(3);
    }

    private static com.fasterxml.jackson.databind.JsonNode json(String text) {
        return ((MockValue.Json) ((MockAction.Return) parse(text).action()).value()).tree();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', quoteCharacter = '~', value = {
        "return 'hello world'|hello world|true",
        "return `it's fine`|it's fine|true",
        "return ''||true",
        "return hello|hello|false",
        "return RED|RED|false",
    })
    void parse_quotedAndBareText_isLiteralText(String text, String value, boolean quoted) {
        MockValue v = ((MockAction.Return) parse(text).action()).value();
        assertThat(v).isEqualTo(new MockValue.Text(value == null ? "" : value, quoted));
    }

    @Test
    void parse_throwForms() {
        assertThat(parse("throw").action()).isEqualTo(new MockAction.Throw(null, 0));
        assertThat(parse("force:throw com.example.Boom").action())
                .isEqualTo(new MockAction.Throw("com.example.Boom", 12));
        assertThat(parse("fail:throw a.b.Outer$Inner").action())
                .isEqualTo(new MockAction.Throw("a.b.Outer$Inner", 11));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "default|FAIL", "true|FAIL", "fail|FAIL", "force|FORCE",
        "force:default|FORCE", "fail:true|FAIL", "force:force|FORCE", "fail:fail|FAIL",
    })
    void parse_defaultMockClassWords(String text, String mode) {
        MockExpression e = parse(text);
        assertThat(e.force()).isEqualTo(mode.equals("FORCE"));
        assertThat(e.action()).isInstanceOf(MockAction.UseMockClass.class);
        assertThat(((MockAction.UseMockClass) e.action()).mockClass()).isNull();
    }

    @Test
    void parse_className_isMockClass() {
        assertThat(parse("force:com.example.FooMock").action())
                .isEqualTo(new MockAction.UseMockClass("com.example.FooMock", 6));
    }

    @Test
    void parse_urlEncodedTwice_isDecodedOnce() {
        MockExpression e = parse("force%3Areturn+%22hi+there%22");
        assertThat(e.force()).isTrue();
        assertThat(((MockValue.Json) ((MockAction.Return) e.action()).value()).tree().asText()).isEqualTo("hi there");
        assertThat(parse("fail%3Athrow%20java.lang.IllegalStateException").action())
                .isEqualTo(new MockAction.Throw("java.lang.IllegalStateException", 11));
    }

    @Test
    void parse_textWithPercent_isNotDecoded() {
        assertThat(((MockAction.Return) parse("return '50%25 off'").action()).value())
                .isEqualTo(new MockValue.Text("50%25 off", true));
    }

    @Test
    void error_unknownAction_namesKeyColumnAndChoices() {
        assertThat(error("sayHello.mock", "force:retrun null").getMessage()).isEqualTo(
                "sayHello.mock: force:retrun null (expected: return [value], throw [class], default, true, fail, force"
                        + " or a fully qualified mock class name; at column 7: found 'retrun'; did you mean 'return'?)");
        assertThat(error("sayHello.mock", "force:?").getKey()).isEqualTo("sayHello.mock");
    }

    @Test
    void error_classNameWithoutPackage_isRejected() {
        assertThat(error("mock", "fail:Mocky").getMessage()).isEqualTo(
                "mock: fail:Mocky (expected: return [value], throw [class], default, true, fail, force or a fully qualified"
                        + " mock class name; at column 6: found 'Mocky')");
        assertThat(error("mock", "defualt").getMessage()).endsWith("found 'defualt'; did you mean 'default'?)");
    }

    @Test
    void error_unknownPrefix() {
        assertThat(error("mock", "forse:return null").getMessage()).isEqualTo(
                "mock: forse:return null (expected: force: or fail: as prefix, or return [value], throw [class], default,"
                        + " true, fail, force or a fully qualified mock class name; at column 1: found 'forse:'; did you mean 'force'?)");
    }

    @Test
    void error_prefixWithoutAction() {
        assertThat(error("mock", "force:").getMessage()).isEqualTo(
                "mock: force: (expected: return [value], throw [class], default, true, fail, force or a fully qualified mock class name"
                        + " after 'force:'; at column 7: found nothing)");
    }

    @Test
    void error_bareWordsWithSpaces_askForQuotes() {
        assertThat(error("mock", "return hello world").getMessage()).isEqualTo(
                "mock: return hello world (expected: a single word, or text in quotes (\"…\", '…' or `…`);"
                        + " at column 13: found more after 'hello')");
    }

    @Test
    void error_unterminatedQuote() {
        assertThat(error("mock", "return 'abc").getMessage()).isEqualTo(
                "mock: return 'abc (expected: a closing ' for the string starting here; at column 8: found the end)");
        assertThat(error("mock", "return 'a' b").getMessage()).isEqualTo(
                "mock: return 'a' b (expected: nothing after the closing '; at column 12: found 'b')");
    }

    @Test
    void error_badJson_pointsIntoTheValue() {
        assertThat(error("users.mock", "return [{\"name\": \"ann\",}]").getMessage()).isEqualTo(
                "users.mock: return [{\"name\": \"ann\",}] (expected: a JSON array; at column 24: Unexpected character"
                        + " ('}' (code 125)): was expecting double-quote to start field name)");
    }

    @Test
    void error_badNumber() {
        assertThat(error("mock", "return 12abc").getMessage()).startsWith(
                "mock: return 12abc (expected: a number; at column ");
    }

    @Test
    void error_trailingJson() {
        assertThat(error("mock", "return {\"a\": 1} {\"b\": 2}").getMessage()).startsWith(
                "mock: return {\"a\": 1} {\"b\": 2} (expected: a JSON object; at column ");
    }

    @Test
    void error_throwWithBadClassName() {
        assertThat(error("mock", "throw com..Boom").getMessage()).isEqualTo(
                "mock: throw com..Boom (expected: an exception class name after 'throw' (Java identifiers separated by '.');"
                        + " at column 11: found '.')");
        assertThat(error("mock", "throw com.Boom now").getMessage()).isEqualTo(
                "mock: throw com.Boom now (expected: an exception class name after 'throw' with nothing after it;"
                        + " at column 15: found 'now')");
    }

    @Test
    void error_wordAfterDefault() {
        assertThat(error("mock", "default please").getMessage()).isEqualTo(
                "mock: default please (expected: nothing after 'default'; at column 9: found 'please')");
    }

    @Test
    void malicious_typeIdKeys_areRejectedWithPosition() {
        assertThat(error("find.mock", "return {\"@class\": \"java.net.URL\", \"name\": \"x\"}").getMessage()).isEqualTo(
                "find.mock: return {\"@class\": \"java.net.URL\", \"name\": \"x\"} (expected: JSON without type ids"
                        + " (keys starting with '@'); at column 9: found key '@class')");
        assertThat(error("mock", "return [{\"ok\": {\"@type\": \"x\"}}]").getMessage())
                .contains("found key '@type'").contains("at column 17");
    }

    @Test
    void malicious_veryLongExpression_isRejectedBeforeParsing() {
        String huge = "return '" + "a".repeat(MockExpressionParser.MAX_EXPRESSION_LENGTH) + "'";
        assertThat(error("mock", huge).getMessage()).isEqualTo(
                "mock: return '" + "a".repeat(92) + "... (16393 characters) (expected: at most 16384 characters; got 16393)");
    }

    @Test
    void malicious_deeplyNestedJson_isRejected() {
        String nested = "[".repeat(200) + "]".repeat(200);
        assertThat(error("mock", "return " + nested).getMessage())
                .contains("(expected: a JSON array; at column ")
                .contains("Document nesting depth (33) exceeds the maximum allowed (32");
    }

    @Test
    void malicious_longClassName_isRejected() {
        String name = "a.".repeat(300) + "B";
        assertThat(error("mock", "throw " + name).getMessage())
                .contains("(expected: an exception class name after 'throw' of at most 512 characters; at column 7: got 601)");
    }

    @Test
    void toString_isCanonical() {
        assertThat(parse("  return   null ")).hasToString("fail:return null");
        assertThat(parse("force:throw")).hasToString("force:throw");
        assertThat(parse("force")).hasToString("force:default");
    }
}
