package dev.weft.rpc.common;

import java.util.Map;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The first and last accepted value of each component, and the first refused one on each side. */
class UrlComponentBoundaryTest {

    @Test
    void valueOf_highestPort_isAccepted() {
        assertThat(URL.valueOf("h:65535").getPort()).isEqualTo(65535);
    }

    @Test
    void constructor_portRange_isZeroTo65535() {
        assertThat(new URL("tri", null, null, "h", 0, null, null).getPort()).isZero();
        assertThat(new URL("tri", null, null, "h", 65535, null, null).getPort()).isEqualTo(65535);
        assertThatThrownBy(() -> new URL("tri", null, null, "h", -1, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL port: -1 (expected: 0-65535)");
        assertThatThrownBy(() -> new URL("tri", null, null, "h", 65536, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL port: 65536 (expected: 0-65535)");
    }

    @Test
    void valueOf_ipv6AddressWithEveryBoundaryHexDigit_isAccepted() {
        URL url = URL.valueOf("tri://[09af:AF::1.2.3.4]:80/svc");

        assertThat(url.getHost()).isEqualTo("09af:AF::1.2.3.4");
        assertThat(url.getPort()).isEqualTo(80);
    }

    @Test
    void valueOf_ipv6ZoneWithEveryBoundaryCharacter_isAccepted() {
        URL url = URL.valueOf("tri://[fe80::1%azAZ09.-_]:80");

        assertThat(url.getHost()).isEqualTo("fe80::1%azAZ09.-_");
    }

    @ParameterizedTest
    @ValueSource(strings = {"::/", "::@", "::G", "::`", "::g", "::%", "fe80::1%", "fe80::1%/", "fe80::1%:",
            "fe80::1%@", "fe80::1%[", "fe80::1%`", "fe80::1%{", "fe80::1%eth0%"})
    void constructor_ipv6HostWithCharacterJustOutsideARange_isRefused(String host) {
        assertThatThrownBy(() -> new URL("tri", null, null, host, 80, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL host: " + host + " (expected: a host name or IPv4 address of letters, digits, '.', '-', '_'"
                        + " or '*', or an IPv6 address)");
    }

    @Test
    void constructor_emptyBrackets_meanNoHost() {
        URL url = new URL("tri", null, null, "[]", 0, "svc", null);

        assertThat(url.getHost()).isNull();
        assertThat(url.getPath()).isEqualTo("svc");
    }

    @Test
    void valueOf_upperAndLowerCaseEscapes_decodeAlike() {
        URL url = URL.valueOf("h?upper=%4A%4F%C3%A9&lower=%4a%4f%c3%a9&edges=%30%39%3A%3a");

        assertThat(url.getParameter("upper")).isEqualTo("JOé");
        assertThat(url.getParameter("lower")).isEqualTo("JOé");
        assertThat(url.getParameter("edges")).isEqualTo("09::");
    }

    @Test
    void valueOf_queryStartingWithAmpersand_keepsTheParametersAfterIt() {
        URL url = URL.valueOf("h?&a=1&&b=2");

        assertThat(url.getParameters()).isEqualTo(Map.of("a", "1", "b", "2"));
    }

    @Test
    void methodParameters_needANonEmptyMethodAndKeyAroundTheDot() {
        URL url = URL.valueOf("h?.timeout=5&say.=7&say.retries=2");

        assertThat(url.hasMethodParameter("", "timeout")).isFalse();
        assertThat(url.hasMethodParameter("say", "")).isFalse();
        assertThat(url.hasMethodParameter("say", "retries")).isTrue();
        assertThat(url.getParameter(".timeout")).isEqualTo("5");
        assertThat(url.getParameter("say.")).isEqualTo("7");
    }
}
