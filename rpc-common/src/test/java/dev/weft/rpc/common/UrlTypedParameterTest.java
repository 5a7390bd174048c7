package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Defaults of the typed getters and the range of each parsed type. */
class UrlTypedParameterTest {

    @Test
    void getParameterInt_acceptsBothEndsOfTheIntRange() {
        URL url = URL.valueOf("h?max=2147483647&min=-2147483648");

        assertThat(url.getParameter("max", 0)).isEqualTo(Integer.MAX_VALUE);
        assertThat(url.getParameter("min", 0)).isEqualTo(Integer.MIN_VALUE);
    }

    @Test
    void getParameterInt_justOutsideTheIntRange_isRefused() {
        URL url = URL.valueOf("h?over=2147483648&under=-2147483649");

        assertThatThrownBy(() -> url.getParameter("over", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL parameter over: 2147483648 (expected: an integer between -2147483648 and 2147483647) in " + url);
        assertThatThrownBy(() -> url.getParameter("under", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL parameter under: -2147483649 (expected: an integer between -2147483648 and 2147483647) in " + url);
    }

    @Test
    void getMethodParameterBoolean_methodValueFalse_overridesServiceValueTrue() {
        URL url = URL.valueOf("h?async=true&say.async=false");

        assertThat(url.getMethodParameter("say", "async", true)).isFalse();
        assertThat(url.getMethodParameter("other", "async", false)).isTrue();
    }

    @Test
    void getMethodParameterBoolean_absent_givesTheDefault() {
        URL url = URL.valueOf("h?timeout=5");

        assertThat(url.getMethodParameter("say", "async", false)).isFalse();
        assertThat(url.getMethodParameter("say", "async", true)).isTrue();
    }
}
