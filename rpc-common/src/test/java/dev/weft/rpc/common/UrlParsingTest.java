package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class UrlParsingTest {

    @Test
    void valueOf_fullUrl_splitsEveryPart() {
        URL url = URL.valueOf("dubbo://admin:s3cret@10.0.0.7:20880/com.acme.Greeter?timeout=3000&cluster=failfast");

        assertThat(url.getProtocol()).isEqualTo("dubbo");
        assertThat(url.getUsername()).isEqualTo("admin");
        assertThat(url.getPassword()).isEqualTo("s3cret");
        assertThat(url.getHost()).isEqualTo("10.0.0.7");
        assertThat(url.getPort()).isEqualTo(20880);
        assertThat(url.getPath()).isEqualTo("com.acme.Greeter");
        assertThat(url.getParameters()).containsExactly(entry("timeout", "3000"), entry("cluster", "failfast"));
    }

    @Test
    void valueOf_ipv6WithPort_storesHostWithoutBrackets() {
        URL url = URL.valueOf("tri://[::1]:50051/svc");

        assertThat(url.getHost()).isEqualTo("::1");
        assertThat(url.getPort()).isEqualTo(50051);
        assertThat(url.getAddress()).isEqualTo("[::1]:50051");
        assertThat(url.toFullString()).isEqualTo("tri://[::1]:50051/svc");
    }

    @Test
    void valueOf_ipv6WithoutPort_hasPortZero() {
        URL url = URL.valueOf("tri://[2001:db8::8a2e:370:7334]/svc");

        assertThat(url.getHost()).isEqualTo("2001:db8::8a2e:370:7334");
        assertThat(url.getPort()).isZero();
        assertThat(url.getAddress()).isEqualTo("[2001:db8::8a2e:370:7334]");
    }

    @Test
    void valueOf_ipv6WithZone_keepsZone() {
        URL url = URL.valueOf("tri://[fe80::1%eth0]:80");

        assertThat(url.getHost()).isEqualTo("fe80::1%eth0");
        assertThat(URL.valueOf(url.toFullString())).isEqualTo(url);
    }

    @Test
    void valueOf_noPort_hasPortZeroAndAddressIsHost() {
        URL url = URL.valueOf("dubbo://example.com/svc");

        assertThat(url.getPort()).isZero();
        assertThat(url.getAddress()).isEqualTo("example.com");
    }

    @Test
    void valueOf_fileUrl_hasNoHostAndPathWithoutLeadingSlash() {
        URL url = URL.valueOf("file:///var/lib/weft/registry.cache");

        assertThat(url.getProtocol()).isEqualTo("file");
        assertThat(url.getHost()).isNull();
        assertThat(url.getPort()).isZero();
        assertThat(url.getPath()).isEqualTo("var/lib/weft/registry.cache");
        assertThat(url.getAddress()).isEmpty();
        assertThat(url.toFullString()).isEqualTo("file:///var/lib/weft/registry.cache");
    }

    @Test
    void valueOf_noProtocol_hostAndPortOnly() {
        URL url = URL.valueOf("192.168.1.10:20880");

        assertThat(url.getProtocol()).isNull();
        assertThat(url.getHost()).isEqualTo("192.168.1.10");
        assertThat(url.getPort()).isEqualTo(20880);
        assertThat(url.getPath()).isNull();
    }

    @Test
    void valueOf_parametersOnly_hasNoHost() {
        URL url = URL.valueOf("?cluster=failsafe");

        assertThat(url.getHost()).isNull();
        assertThat(url.getParameter("cluster")).isEqualTo("failsafe");
    }

    @Test
    void valueOf_userWithoutPassword_hasNullPassword() {
        URL url = URL.valueOf("dubbo://alice@host:1");

        assertThat(url.getUsername()).isEqualTo("alice");
        assertThat(url.getPassword()).isNull();
    }

    @Test
    void valueOf_percentEncodedParts_areDecoded() {
        URL url = URL.valueOf("dubbo://al%40ce:p%3Aw%2Fd@host:1/a%20b/c%3Fd?mock=force%3Areturn+null&list=a%2Cb%26c");

        assertThat(url.getUsername()).isEqualTo("al@ce");
        assertThat(url.getPassword()).isEqualTo("p:w/d");
        assertThat(url.getPath()).isEqualTo("a b/c?d");
        assertThat(url.getParameter("mock")).isEqualTo("force:return null");
        assertThat(url.getParameter("list")).isEqualTo("a,b&c");
    }

    @Test
    void valueOf_unicodeValue_isDecodedAsUtf8() {
        URL url = URL.valueOf("dubbo://host/svc?greeting=%E4%BD%A0%E5%A5%BD&raw=ça");

        assertThat(url.getParameter("greeting")).isEqualTo("你好");
        assertThat(url.getParameter("raw")).isEqualTo("ça");
    }

    @Test
    void valueOf_repeatedKey_lastWinsAndTakesLastPosition() {
        URL url = URL.valueOf("dubbo://host/svc?retries=1&timeout=5&retries=4");

        assertThat(url.getParameter("retries")).isEqualTo("4");
        assertThat(url.getParameters()).containsExactly(entry("timeout", "5"), entry("retries", "4"));
    }

    @Test
    void valueOf_emptyValues_arePresentAndEmpty() {
        URL url = URL.valueOf("dubbo://host/svc?a=&b&c=1&&");

        assertThat(url.getParameters()).containsExactly(entry("a", ""), entry("b", ""), entry("c", "1"));
        assertThat(url.hasParameter("a")).isTrue();
        assertThat(url.getParameter("a")).isEmpty();
        assertThat(url.hasParameter("b")).isTrue();
    }

    @Test
    void valueOf_surroundingWhitespace_isTrimmed() {
        assertThat(URL.valueOf("  dubbo://host:1/svc \n")).isEqualTo(URL.valueOf("dubbo://host:1/svc"));
    }

    @Test
    void valueOf_garbage_throwsNamingInputAndRule() {
        assertThatThrownBy(() -> URL.valueOf("dubbo://host:99999/svc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: dubbo://host:99999/svc (expected: a port 0-65535, got '99999')");
        assertThatThrownBy(() -> URL.valueOf("dubbo://ho st/svc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: dubbo://ho st/svc (expected: a host of letters, digits, '.', '-' or '_', got 'ho st')");
        assertThatThrownBy(() -> URL.valueOf("1dubbo://host"))
                .hasMessageStartingWith("URL: 1dubbo://host (expected: protocol made of a letter");
        assertThatThrownBy(() -> URL.valueOf("dubbo://[::1/svc"))
                .hasMessage("URL: dubbo://[::1/svc (expected: ']' closing the IPv6 address)");
        assertThatThrownBy(() -> URL.valueOf("dubbo://[::1]x/svc"))
                .hasMessage("URL: dubbo://[::1]x/svc (expected: ':port' after the IPv6 address)");
        assertThatThrownBy(() -> URL.valueOf("dubbo://host/svc?=1"))
                .hasMessage("URL: dubbo://host/svc?=1 (expected: a parameter name before '=' in '=1')");
        assertThatThrownBy(() -> URL.valueOf("dubbo://host/svc?timeout=%G1"))
                .hasMessage("URL: dubbo://host/svc?timeout=%G1 (expected: valid percent-encoding (%XX) in parameter 'timeout=%G1')");
        assertThatThrownBy(() -> URL.valueOf("//host"))
                .hasMessage("URL: //host (expected: a protocol before '//')");
    }

    @Test
    void valueOf_nullOrBlank_throwsIllegalArgument() {
        assertThatThrownBy(() -> URL.valueOf(null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: null (expected: protocol://host:port/path?key=value)");
        assertThatThrownBy(() -> URL.valueOf("   "))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL:     (expected: a non-empty URL)");
    }

    @Test
    void valueOf_nothingButSeparators_isRejected() {
        assertThatThrownBy(() -> URL.valueOf("?&"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: ?& (expected: at least a protocol, host, port, path or parameter)");
    }

    @Test
    void valueOf_loneSurrogate_isRejected() {
        assertThatThrownBy(() -> URL.valueOf("dubbo://h/p?k=\uD800x"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("(expected: well-formed UTF-16, found a lone surrogate at index 14)");
        assertThatThrownBy(() -> new URL("dubbo", "u", "pw\uDC00", "h", 1, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL password: lone surrogate at index 2 (expected: well-formed UTF-16 text, which has a UTF-8 form)");
    }

    @Test
    void valueOf_controlCharacter_isRejected() {
        assertThatThrownBy(() -> URL.valueOf("dubbo://host\u0001:1"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no control characters");
    }

    @Test
    void valueOf_badPassword_redactsItInMessage() {
        assertThatThrownBy(() -> URL.valueOf("dubbo://admin:hunter2@bad host:80/svc"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("URL: dubbo://admin:***@bad host:80/svc (")
                .hasMessageNotContaining("hunter2");
    }

    @Test
    void valueOf_badPercentEncodingInPassword_neverEchoesPassword() {
        assertThatThrownBy(() -> URL.valueOf("dubbo://admin:hun%ZZter2@host:80"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: dubbo://admin:***@host:80 (expected: valid percent-encoding (%XX) in the password)");
    }

    @Test
    void constructor_invalidParts_throwNamingPart() {
        assertThatThrownBy(() -> new URL("dubbo", "bad host", 1, null))
                .hasMessageStartingWith("URL host: bad host (expected: a host name or IPv4 address");
        assertThatThrownBy(() -> new URL("dubbo", "host", 70000, null))
                .hasMessage("URL port: 70000 (expected: 0-65535)");
        assertThatThrownBy(() -> new URL("9p", "host", 1, null))
                .hasMessageStartingWith("URL protocol: 9p (expected:");
        assertThatThrownBy(() -> new URL("dubbo", null, "pw", "host", 1, null, null))
                .hasMessage("URL password without a user name (expected: user:password@host)");
        assertThatThrownBy(() -> new URL("dubbo", null, null, "host", 1, null, java.util.Map.of("", "v")))
                .hasMessage("URL parameter name: \"\" (expected: a non-empty name)");
    }

    @Test
    void constructor_bracketedIpv6_isStoredWithoutBrackets() {
        URL url = new URL("tri", "[::1]", 80, "svc");

        assertThat(url.getHost()).isEqualTo("::1");
        assertThat(url.toFullString()).isEqualTo("tri://[::1]:80/svc");
    }

    @Test
    void valueOf_passwordWithUnencodedSlash_isNeverEchoed() {
        assertThatThrownBy(() -> URL.valueOf("zk://admin:pa/ss@host:2181"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: zk://admin:***@host:2181 (expected: a port 0-65535, got '***')");
    }

    @Test
    void valueOf_passwordWithUnencodedQuestionMark_isNeverEchoed() {
        assertThatThrownBy(() -> URL.valueOf("zk://admin:pa?ss@host:2181"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: zk://admin:***@host:2181 (expected: a port 0-65535, got '***')");
    }

    @Test
    void valueOf_passwordWithUnencodedAtAndSlash_isNeverEchoed() {
        assertThatThrownBy(() -> URL.valueOf("zk://admin:p@s/s@h?x=%zz"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: zk://admin:***@h?x=%zz (expected: valid percent-encoding (%XX) in parameter '***')");
    }

    @Test
    void valueOf_atInTheQuery_doesNotHideTheRealProblem() {
        assertThatThrownBy(() -> URL.valueOf("dubbo://admin:pw@host:99999/svc?owner=a@b.example"))
                .hasMessage("URL: dubbo://admin:***@host:99999/svc?owner=a@b.example (expected: a port 0-65535, got '99999')");
    }

    @Test
    void valueOf_leadingOrTrailingControlCharacter_isRejectedNotTrimmed() {
        assertThatThrownBy(() -> URL.valueOf("dubbo://h/p?a=\0"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageEndingWith("(expected: no control characters, found one at index 14)");
        assertThatThrownBy(() -> URL.valueOf("\u0007dubbo://h/p"))
                .hasMessageEndingWith("(expected: no control characters, found one at index 0)");
        assertThat(URL.valueOf(" \tdubbo://h/p?a=1\r\n").getParameter("a")).isEqualTo("1");
    }

    @Test
    void valueOf_malformedPercentEncodedUtf8_isRejected() {
        assertThatThrownBy(() -> URL.valueOf("dubbo://h/p?a=%C3%28"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL: dubbo://h/p?a=%C3%28 (expected: percent-encoded bytes that form UTF-8 in parameter 'a=%C3%28')");
        assertThatThrownBy(() -> URL.valueOf("dubbo://h/a%FFb"))
                .hasMessage("URL: dubbo://h/a%FFb (expected: percent-encoded bytes that form UTF-8 in path segment 'a%FFb')");
        assertThatThrownBy(() -> URL.valueOf("dubbo://u:p%E4%BD@h"))
                .hasMessage("URL: dubbo://u:***@h (expected: percent-encoded bytes that form UTF-8 in the password)");
        assertThatThrownBy(() -> URL.valueOf("dubbo://h/p?a=%E4%B"))
                .hasMessage("URL: dubbo://h/p?a=%E4%B (expected: valid percent-encoding (%XX) in parameter 'a=%E4%B')");
        assertThat(URL.valueOf("dubbo://h/p?a=%E4%BD%A0+x%2B%C3%A9").getParameter("a")).isEqualTo("\u4F60 x+\u00E9");
    }
}
