package dev.weft.rpc.common;

import java.util.HashSet;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the constructor checks in each part, and the value semantics of the result. */
class UrlConstructorCheckTest {

    private static final String WELL_FORMED = " (expected: well-formed UTF-16 text, which has a UTF-8 form)";

    @Test
    void constructor_loneSurrogateInUserName_isRefusedWithoutEchoingIt() {
        assertThatThrownBy(() -> new URL("tri", "\uD800ops", "pw", "h", 1, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL user name: lone surrogate at index 0" + WELL_FORMED);
    }

    @Test
    void constructor_loneSurrogateInPath_isRefused() {
        assertThatThrownBy(() -> new URL("tri", null, null, "h", 1, "a/b\uDC00", null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL path: lone surrogate at index 3" + WELL_FORMED);
    }

    @Test
    void constructor_loneSurrogateInParameterName_isRefused() {
        assertThatThrownBy(() -> new URL("tri", null, null, "h", 1, null, Map.of("k\uD800", "v")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL parameter name: lone surrogate at index 1" + WELL_FORMED);
    }

    @Test
    void constructor_loneSurrogateInParameterValue_namesTheKey() {
        assertThatThrownBy(() -> new URL("tri", null, null, "h", 1, null, Map.of("k", "ab\uDC00")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL parameter k: lone surrogate at index 2" + WELL_FORMED);
    }

    @Test
    void constructor_parameterValueStartingWithLoneSurrogate_isRefused() {
        assertThatThrownBy(() -> new URL("tri", null, null, "h", 1, null, Map.of("k", "\uDC00b")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL parameter k: lone surrogate at index 0" + WELL_FORMED);
    }

    @Test
    void constructor_protocolStartingWithDigit_isRefused() {
        assertThatThrownBy(() -> new URL("1tri", null, null, "h", 1, null, null))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL protocol: 1tri (expected: a letter then letters, digits, '+', '-' or '.')");
    }

    @Test
    void equals_sameInstance_isEqual() {
        URL url = URL.valueOf("tri://h:1/svc?a=1");

        assertThat(url.equals(url)).isTrue();
    }

    @Test
    void hashCode_distinctUrls_spreadOverManyValues() {
        Set<Integer> hashes = new HashSet<>();
        for (int port = 1; port <= 50; port++) {
            hashes.add(URL.valueOf("tri://h:" + port + "/svc").hashCode());
        }

        assertThat(hashes).hasSizeGreaterThan(40);
    }
}
