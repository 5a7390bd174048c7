package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Each malformed part of a URL text is reported with the exact message a user reads. */
class UrlMalformedPartTest {

    @Test
    void valueOf_loneSurrogateAtFirstCharacter_isReportedAtIndexZero() {
        assertThatThrownBy(() -> URL.valueOf("\uD800x://h"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: \uD800x://h (expected: well-formed UTF-16, found a lone surrogate at index 0)");
    }

    @Test
    void valueOf_highSurrogateAsLastCharacter_isReportedAsLoneSurrogate() {
        assertThatThrownBy(() -> URL.valueOf("h?a=\uD800"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: h?a=\uD800 (expected: well-formed UTF-16, found a lone surrogate at index 4)");
    }

    @Test
    void valueOf_schemeSeparatorWithoutProtocol_namesTheEmptyProtocol() {
        assertThatThrownBy(() -> URL.valueOf("://host/svc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: ://host/svc (expected: protocol made of a letter then letters, digits, '+', '-' or '.', got '')");
    }

    @Test
    void valueOf_protocolStartingWithDigit_isRefused() {
        assertThatThrownBy(() -> URL.valueOf("1tri://host"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: 1tri://host (expected: protocol made of a letter then letters, digits, '+', '-' or '.', got '1tri')");
    }

    @Test
    void valueOf_protocolWithUnderscoreAfterFirstLetter_isRefused() {
        assertThatThrownBy(() -> URL.valueOf("tri_x://host"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: tri_x://host (expected: protocol made of a letter then letters, digits, '+', '-' or '.', got 'tri_x')");
    }

    @Test
    void valueOf_atSignFirst_asksForUserName() {
        assertThatThrownBy(() -> URL.valueOf("@host:20880"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: @host:20880 (expected: a user name before '@')");
    }

    @Test
    void valueOf_badEscapeInValueOfNamelessParameter_reportsTheEscapeFirst() {
        assertThatThrownBy(() -> URL.valueOf("h?=%zz"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: h?=%zz (expected: valid percent-encoding (%XX) in parameter '=%zz')");
    }

    @Test
    void valueOf_namelessParameter_isRefused() {
        assertThatThrownBy(() -> URL.valueOf("h?a=1&=2"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: h?a=1&=2 (expected: a parameter name before '=' in '=2')");
    }

    @Test
    void valueOf_badEscapeAfterEmptyPathSegment_quotesOnlyThatSegment() {
        assertThatThrownBy(() -> URL.valueOf("h//%zz"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: h//%zz (expected: valid percent-encoding (%XX) in path segment '%zz')");
    }

    @Test
    void valueOf_nonHexDigitInIpv6Address_isRefused() {
        assertThatThrownBy(() -> URL.valueOf("tri://[::g]:80"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: tri://[::g]:80 (expected: an IPv6 address in brackets, got '::g')");
    }

    @Test
    void valueOf_emptyIpv6Zone_isRefused() {
        assertThatThrownBy(() -> URL.valueOf("tri://[fe80::1%]:80"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: tri://[fe80::1%]:80 (expected: an IPv6 address in brackets, got 'fe80::1%')");
    }

    @Test
    void valueOf_ipv6ZoneWithColon_isRefused() {
        assertThatThrownBy(() -> URL.valueOf("tri://[fe80::1%eth:0]:80"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: tri://[fe80::1%eth:0]:80 (expected: an IPv6 address in brackets, got 'fe80::1%eth:0')");
    }

    @Test
    void valueOf_portAboveRange_isRefused() {
        assertThatThrownBy(() -> URL.valueOf("h:65536"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: h:65536 (expected: a port 0-65535, got '65536')");
    }

    @Test
    void valueOf_uppercaseHexDigitOutOfRange_isABadEscape() {
        assertThatThrownBy(() -> URL.valueOf("h?u=%4G"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: h?u=%4G (expected: valid percent-encoding (%XX) in parameter 'u=%4G')");
        assertThatThrownBy(() -> URL.valueOf("h?u=%4@"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: h?u=%4@ (expected: valid percent-encoding (%XX) in parameter 'u=%4@')");
    }
}
