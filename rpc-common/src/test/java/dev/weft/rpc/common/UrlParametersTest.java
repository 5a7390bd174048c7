package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import java.util.LinkedHashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

class UrlParametersTest {

    private static final URL CONSUMER = URL.valueOf(
            "consumer://10.0.0.1/com.acme.Greeter?timeout=1000&sayHello.timeout=3&retries=2"
                    + "&sayHello.loadbalance=leastactive&sticky=true&big=9000000000&empty=&sayHello.retries=");

    @Test
    void getMethodParameter_methodKeyWins() {
        assertThat(CONSUMER.getMethodParameter("sayHello", "timeout")).isEqualTo("3");
        assertThat(CONSUMER.getMethodParameter("sayHello", "timeout", 0)).isEqualTo(3);
        assertThat(CONSUMER.getMethodParameter("sayHello", "timeout", 0L)).isEqualTo(3L);
        assertThat(CONSUMER.getMethodParameter("sayHello", "loadbalance", "random")).isEqualTo("leastactive");
    }

    @Test
    void getMethodParameter_fallsBackToInterfaceKey() {
        assertThat(CONSUMER.getMethodParameter("sayBye", "timeout")).isEqualTo("1000");
        assertThat(CONSUMER.getMethodParameter("sayBye", "timeout", 0)).isEqualTo(1000);
        assertThat(CONSUMER.getMethodParameter("sayBye", "loadbalance", "random")).isEqualTo("random");
        assertThat(CONSUMER.getMethodParameter("sayBye", "sticky", false)).isTrue();
        assertThat(CONSUMER.getMethodParameter(null, "timeout", 0)).isEqualTo(1000);
        assertThat(CONSUMER.getMethodParameter("sayBye", "absent")).isNull();
    }

    @Test
    void getMethodParameter_emptyMethodValue_isPresentButDefaultingGettersUseDefault() {
        assertThat(CONSUMER.getMethodParameter("sayHello", "retries")).isEmpty();
        assertThat(CONSUMER.getMethodParameter("sayHello", "retries", 7)).isEqualTo(7);
        assertThat(CONSUMER.hasMethodParameter("sayHello", "retries")).isTrue();
        assertThat(CONSUMER.hasMethodParameter("sayHello", "sticky")).isFalse();
        assertThat(CONSUMER.hasMethodParameter(null, "sticky")).isFalse();
    }

    @Test
    void getMethodParameter_keyWithDots_splitsAtFirstDotOnly() {
        URL url = URL.valueOf("c://h?sayHello.hash.arguments=0,1&hash.arguments=2");

        assertThat(url.getMethodParameter("sayHello", "hash.arguments")).isEqualTo("0,1");
        assertThat(url.getMethodParameter("other", "hash.arguments")).isEqualTo("2");
    }

    @Test
    void emptyValue_isPresentButTreatedAsAbsentByDefaultingGetters() {
        assertThat(CONSUMER.hasParameter("empty")).isTrue();
        assertThat(CONSUMER.getParameter("empty")).isEmpty();
        assertThat(CONSUMER.getParameter("empty", "dflt")).isEqualTo("dflt");
        assertThat(CONSUMER.getParameter("empty", 5)).isEqualTo(5);
        assertThat(CONSUMER.getParameter("empty", 6L)).isEqualTo(6L);
        assertThat(CONSUMER.getParameter("empty", true)).isTrue();
    }

    @Test
    void absentKey_givesNullOrDefault() {
        assertThat(CONSUMER.hasParameter("absent")).isFalse();
        assertThat(CONSUMER.getParameter("absent")).isNull();
        assertThat(CONSUMER.getParameter("absent", "d")).isEqualTo("d");
        assertThat(CONSUMER.getParameter("absent", -1)).isEqualTo(-1);
        assertThat(CONSUMER.getParameter("absent", -2L)).isEqualTo(-2L);
        assertThat(CONSUMER.getParameter("absent", false)).isFalse();
    }

    @Test
    void typedGetters_parseValues() {
        assertThat(CONSUMER.getParameter("timeout", 0)).isEqualTo(1000);
        assertThat(CONSUMER.getParameter("big", 0L)).isEqualTo(9_000_000_000L);
        assertThat(CONSUMER.getParameter("sticky", false)).isTrue();
        assertThat(URL.valueOf("c://h?b=FALSE").getParameter("b", true)).isFalse();
        assertThat(URL.valueOf("c://h?b=TRUE").getParameter("b", false)).isTrue();
        assertThat(URL.valueOf("c://h?n=-12").getParameter("n", 0)).isEqualTo(-12);
        // Turkish locale (surefire's) must not break "true" with a dotted capital I.
        assertThat(URL.valueOf("c://h?b=True").getParameter("b", false)).isTrue();
    }

    @Test
    void typedGetters_repeatedCalls_returnSameValue_andMixLongAndInt() {
        URL url = URL.valueOf("c://h?n=42");

        assertThat(url.getParameter("n", 0L)).isEqualTo(42L);
        assertThat(url.getParameter("n", 0)).isEqualTo(42);
        assertThat(url.getParameter("n", 0L)).isEqualTo(42L);
        assertThat(url.getParameter("n", 0)).isEqualTo(42);
    }

    @Test
    void intGetter_badValue_throwsNamingKeyValueAndRedactedUrl() {
        URL url = URL.valueOf("c://bob:pw@h/svc?timeout=abc");

        assertThatThrownBy(() -> url.getParameter("timeout", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL parameter timeout: abc (expected: an integer) in c://bob:***@h/svc?timeout=abc");
        assertThatThrownBy(() -> url.getMethodParameter("sayHello", "timeout", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("timeout: abc");
    }

    @Test
    void intGetter_longValue_throwsWithRange() {
        assertThatThrownBy(() -> CONSUMER.getParameter("big", 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("URL parameter big: 9000000000 (expected: an integer between -2147483648 and 2147483647) in ");
    }

    @Test
    void longGetter_badValue_throws() {
        assertThatThrownBy(() -> URL.valueOf("c://h?warmup=1e3").getParameter("warmup", 0L))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL parameter warmup: 1e3 (expected: an integer) in c://h?warmup=1e3");
    }

    @Test
    void booleanGetter_badValue_throws() {
        assertThatThrownBy(() -> URL.valueOf("c://h?sticky=yes").getParameter("sticky", false))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("URL parameter sticky: yes (expected: true or false) in c://h?sticky=yes");
    }

    @Test
    void getParameters_isUnmodifiable() {
        assertThatThrownBy(() -> CONSUMER.getParameters().put("x", "y"))
                .isInstanceOf(UnsupportedOperationException.class);
    }

    @Test
    void getServiceInterface_prefersInterfaceParameterOverPath() {
        assertThat(URL.valueOf("c://h/com.acme.Greeter").getServiceInterface()).isEqualTo("com.acme.Greeter");
        assertThat(URL.valueOf("c://h/path?interface=com.acme.Other").getServiceInterface()).isEqualTo("com.acme.Other");
        assertThat(URL.valueOf("c://h/path?interface=").getServiceInterface()).isEqualTo("path");
        assertThat(URL.valueOf("c://h").getServiceInterface()).isNull();
    }

    @Test
    void getAddress_formatsHostAndPort() {
        assertThat(URL.valueOf("c://h:80").getAddress()).isEqualTo("h:80");
        assertThat(URL.valueOf("c://h").getAddress()).isEqualTo("h");
        assertThat(URL.valueOf("c://[::1]:80").getAddress()).isEqualTo("[::1]:80");
        assertThat(URL.valueOf("file:///x").getAddress()).isEmpty();
    }

    @Test
    void addParameter_returnsNewInstance_leavesOriginalUnchanged() {
        URL original = URL.valueOf("c://h/svc?a=1");

        URL added = original.addParameter("b", "2");
        URL replaced = original.addParameter("a", 9);
        URL longAdded = original.addParameter("l", 5_000_000_000L);
        URL boolAdded = original.addParameter("sticky", true);

        assertThat(original.getParameters()).containsExactly(entry("a", "1"));
        assertThat(added.getParameters()).containsExactly(entry("a", "1"), entry("b", "2"));
        assertThat(replaced.getParameter("a", 0)).isEqualTo(9);
        assertThat(longAdded.getParameter("l", 0L)).isEqualTo(5_000_000_000L);
        assertThat(boolAdded.getParameter("sticky", false)).isTrue();
        assertThat(added).isNotSameAs(original);
    }

    @Test
    void addParameter_sameValue_returnsSameInstance() {
        URL original = URL.valueOf("c://h/svc?a=1");

        assertThat(original.addParameter("a", "1")).isSameAs(original);
    }

    @Test
    void addParameter_methodKey_isIndexedInCopy() {
        URL url = URL.valueOf("c://h/svc?timeout=1").addParameter("sayHello.timeout", 5);

        assertThat(url.getMethodParameter("sayHello", "timeout", 0)).isEqualTo(5);
    }

    @Test
    void addParameter_nulls_areRejected() {
        URL url = URL.valueOf("c://h");

        assertThatThrownBy(() -> url.addParameter(null, "v")).isInstanceOf(NullPointerException.class).hasMessage("key");
        assertThatThrownBy(() -> url.addParameter("k", (String) null)).isInstanceOf(NullPointerException.class).hasMessage("value");
    }

    @Test
    void constructor_nullParameterNameOrValue_isRejectedNamingTheKey() {
        Map<String, String> nullValue = new LinkedHashMap<>();
        nullValue.put("timeout", null);
        Map<String, String> nullName = new LinkedHashMap<>();
        nullName.put(null, "1");

        assertThatThrownBy(() -> new URL("c", null, null, "h", 1, null, nullValue))
                .isInstanceOf(NullPointerException.class).hasMessage("URL parameter timeout");
        assertThatThrownBy(() -> new URL("c", null, null, "h", 1, null, nullName))
                .isInstanceOf(NullPointerException.class).hasMessage("URL parameter name");
    }

    @Test
    void constructor_copiesParameters_inOrder_unaffectedByLaterChanges() {
        Map<String, String> given = new LinkedHashMap<>();
        given.put("b", "2");
        given.put("a", "1");
        URL url = new URL("c", null, null, "h", 1, null, given);
        given.put("c", "3");

        assertThat(url.getParameters()).containsExactly(entry("b", "2"), entry("a", "1"));
        assertThat(new URL("c", null, null, "h", 1, null, Map.of()).getParameters()).isEmpty();
    }

    @Test
    void addParameters_addsAll_leavesOriginalUnchanged() {
        URL original = URL.valueOf("c://h/svc?a=1");
        Map<String, String> more = new LinkedHashMap<>();
        more.put("a", "2");
        more.put("b", "3");

        URL copy = original.addParameters(more);

        assertThat(copy.getParameters()).containsExactly(entry("a", "2"), entry("b", "3"));
        assertThat(original.getParameters()).containsExactly(entry("a", "1"));
        assertThat(original.addParameters(Map.of())).isSameAs(original);
    }

    @Test
    void removeParameter_returnsNewInstance_leavesOriginalUnchanged() {
        URL original = URL.valueOf("c://h/svc?a=1&sayHello.a=2");

        URL removed = original.removeParameter("sayHello.a");

        assertThat(removed.getParameters()).containsExactly(entry("a", "1"));
        assertThat(removed.getMethodParameter("sayHello", "a")).isEqualTo("1");
        assertThat(original.getMethodParameter("sayHello", "a")).isEqualTo("2");
        assertThat(original.removeParameter("absent")).isSameAs(original);
    }

    @Test
    void withX_changeOnePart() {
        URL url = URL.valueOf("c://h:1/p?a=1");

        assertThat(url.withProtocol("d").toFullString()).isEqualTo("d://h:1/p?a=1");
        assertThat(url.withHost("other").toFullString()).isEqualTo("c://other:1/p?a=1");
        assertThat(url.withPort(2).toFullString()).isEqualTo("c://h:2/p?a=1");
        assertThat(url.withPath("/q/r").toFullString()).isEqualTo("c://h:1/q/r?a=1");
        assertThat(url.withParameters(Map.of("b", "2")).toFullString()).isEqualTo("c://h:1/p?b=2");
        assertThat(url.toFullString()).isEqualTo("c://h:1/p?a=1");
    }

    @Test
    void equalsAndHashCode_byValue_ignoringParameterOrder() {
        URL a = URL.valueOf("c://u:p@h:1/p?x=1&y=2");
        URL b = URL.valueOf("c://u:p@h:1/p?y=2&x=1");

        assertThat(a).isEqualTo(b).hasSameHashCodeAs(b);
        assertThat(a).isNotEqualTo(URL.valueOf("c://u:q@h:1/p?x=1&y=2"));
        assertThat(a).isNotEqualTo(URL.valueOf("c://u:p@h:2/p?x=1&y=2"));
        assertThat(a).isNotEqualTo(URL.valueOf("c://u:p@h:1/p?x=1&y=3"));
        assertThat(a).isNotEqualTo(URL.valueOf("c://u:p@h:1/p?x=1&y=2&z="));
        assertThat(a).isNotEqualTo(URL.valueOf("d://u:p@h:1/p?x=1&y=2"));
        assertThat(a).isNotEqualTo(URL.valueOf("c://v:p@h:1/p?x=1&y=2"));
        assertThat(a).isNotEqualTo(URL.valueOf("c://u:p@g:1/p?x=1&y=2"));
        assertThat(a).isNotEqualTo(URL.valueOf("c://u:p@h:1/q?x=1&y=2"));
        assertThat(a).isNotEqualTo("c://u:p@h:1/p?x=1&y=2");
    }

    @Test
    void toString_redactsPassword_toFullStringKeepsIt() {
        URL url = URL.valueOf("dubbo://admin:s3cret@host:1/svc?timeout=5");

        assertThat(url.toString()).isEqualTo("dubbo://admin:***@host:1/svc?timeout=5");
        assertThat(url.toFullString()).isEqualTo("dubbo://admin:s3cret@host:1/svc?timeout=5");
        assertThat(URL.valueOf("dubbo://admin@host").toString()).isEqualTo("dubbo://admin@host");
    }

    @Test
    void toFullString_encodesSpecialCharacters() {
        URL url = new URL("dubbo", "a@b", "p:w/d?#", "host", 80, "x y/z%",
                Map.of("mock", "force:return null"));

        assertThat(url.toFullString())
                .isEqualTo("dubbo://a%40b:p%3Aw%2Fd%3F%23@host:80/x+y/z%25?mock=force%3Areturn+null");
        assertThat(url.toString()).isEqualTo("dubbo://a%40b:***@host:80/x+y/z%25?mock=force%3Areturn+null");
        assertThat(URL.valueOf(url.toFullString())).isEqualTo(url);
    }
}
