package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowable;

/** Error messages of texts that may hold a password mask it, in the text and in the quoted detail. */
class UrlPasswordRedactionTest {

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
