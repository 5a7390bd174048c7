package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Error messages of texts that may hold a password mask it, in the text and in the quoted detail. */
class UrlPasswordRedactionTest {

    @Test
    void toString_masksThePasswordOfEveryUrlInAParameterValue_toFullStringKeepsThem() {
        URL consumer = new URL("consumer", null, null, "127.0.0.1", 0, "com.acme.Greeter", java.util.Map.of("url",
                "weft://ops:s3cr@t@10.0.0.1:20880/x?a=b,weft://10.0.0.2:20880,dubbo://u:pw@10.0.0.3:1"));

        assertThat(consumer.toString()).doesNotContain("s3cr").doesNotContain("pw%40")
                .isEqualTo("consumer://127.0.0.1/com.acme.Greeter?url=" + URL.encode(
                        "weft://ops:***@10.0.0.1:20880/x?a=b,weft://10.0.0.2:20880,dubbo://u:***@10.0.0.3:1"));
        assertThat(URL.valueOf(consumer.toFullString())).isEqualTo(consumer);
        assertThat(consumer.toFullString()).contains(URL.encode("ops:s3cr@t@"));
    }

    @Test
    void toString_ofAParameterWithAnAtSignButNoUrlPassword_isUnchanged() {
        URL url = URL.valueOf("weft://h:1/s?owner=ada@example.com&url=weft://u@h:2");
        assertThat(url.toString()).isEqualTo(url.toFullString());
    }

    @Test
    void valueOf_emptyProtocolBeforeUserInfo_masksOnlyThePassword() {
        assertThatThrownBy(() -> URL.valueOf("://u:p@h"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: ://u:***@h (expected: protocol made of a letter then letters, digits, '+', '-' or '.',"
                        + " got '')");
    }

    @Test
    void valueOf_emptyProtocolAndPasswordWithSlash_masksFromTheColonAfterTheSeparator() {
        Throwable thrown = catchThrowable(() -> URL.valueOf("://u:p/x@h"));

        assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
        assertThat(thrown.getMessage()).startsWith("URL: ://u:***@h (").doesNotContain("p/x");
    }

    @Test
    void valueOf_passwordWithSlashAndNoUserName_isMasked() {
        Throwable thrown = catchThrowable(() -> URL.valueOf(":p/x@h"));

        assertThat(thrown).isInstanceOf(IllegalArgumentException.class);
        assertThat(thrown.getMessage()).startsWith("URL: :***@h (").doesNotContain("p/x");
    }

    @Test
    void valueOf_passwordEndingInSlash_isMaskedAlsoWhereTheParserReadItAsPort() {
        assertThatThrownBy(() -> URL.valueOf("u:p/@h"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: u:***@h (expected: a port 0-65535, got '***')");
    }

    @Test
    void valueOf_emptyPassword_isShownAsWritten() {
        assertThatThrownBy(() -> URL.valueOf("u:@h:bad"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: u:@h:bad (expected: a port 0-65535, got 'bad')");
    }
}
