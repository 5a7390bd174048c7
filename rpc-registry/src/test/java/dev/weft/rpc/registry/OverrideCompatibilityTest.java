package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** A rule may not change the kind of a value: {@link Configurator#incompatibilityWith}, with its messages. */
class OverrideCompatibilityTest {

    private static final String SERVICE = "com.example.DemoService";
    private static final URL TARGET = URL.valueOf("weft://10.0.0.1:20880/" + SERVICE
            + "?weight=100&timeout=0&offset=-3&name=blue&sayHello.retries=2&blank=");

    private static String why(String query) {
        return Configurator.of(URL.valueOf("override://0.0.0.0/" + SERVICE + "?" + query)).incompatibilityWith(TARGET);
    }

    @Test
    void integerValue_mustStayAnInteger() {
        assertThat(why("weight=heavy")).isEqualTo("weight: heavy (expected: an integer, like the current value 100)");
        assertThat(why("weight=1.5")).isEqualTo("weight: 1.5 (expected: an integer, like the current value 100)");
        assertThat(why("weight=")).isEqualTo("weight:  (expected: an integer, like the current value 100)");
        assertThat(why("weight=7")).isNull();
    }

    @Test
    void nonNegativeValue_mustStayNonNegative_atTheBoundary() {
        assertThat(why("weight=-5")).isEqualTo("weight: -5 (expected: >= 0, like the current value 100)");
        assertThat(why("timeout=-1")).isEqualTo("timeout: -1 (expected: >= 0, like the current value 0)");
        assertThat(why("timeout=0")).isNull();
        assertThat(why("weight=0")).isNull();
    }

    @Test
    void negativeValue_mayBecomeAnyInteger() {
        assertThat(why("offset=-7")).isNull();
        assertThat(why("offset=4")).isNull();
        assertThat(why("offset=x")).isEqualTo("offset: x (expected: an integer, like the current value -3)");
    }

    @Test
    void valuesThatAreNotIntegers_orAbsent_mayBecomeAnything() {
        assertThat(why("name=-5")).isNull();
        assertThat(why("blank=abc")).isNull();
        assertThat(why("unknown=-5")).isNull();
    }

    @Test
    void integerWithSurroundingSpaces_countsAsAnInteger() {
        assertThat(why("weight=%2042%20")).isNull();
        assertThat(why("weight=%20-1")).startsWith("weight:  -1 (expected: >= 0");
    }

    @Test
    void methodKey_isComparedWithTheMethodsValue_elseTheServiceWideOne() {
        assertThat(why("sayHello.retries=-1")).isEqualTo("sayHello.retries: -1 (expected: >= 0, like the current value 2)");
        assertThat(why("sayBye.weight=x")).isEqualTo("sayBye.weight: x (expected: an integer, like the current value 100)");
        assertThat(why("sayBye.name=-1")).isNull();
    }

    @Test
    void keyWithADotAtEitherEnd_isNotAMethodKey() {
        assertThat(why(".weight=x")).isNull();
        assertThat(why("weight.=x")).isNull();
        assertThat(why("a.weight=x")).isEqualTo("a.weight: x (expected: an integer, like the current value 100)");
    }

    @Test
    void absentRule_isNeverIncompatible_itOnlyFillsMissingKeys() {
        assertThat(Configurator.of(URL.valueOf("absent://0.0.0.0/" + SERVICE + "?weight=heavy")).incompatibilityWith(TARGET))
                .isNull();
    }

    @Test
    void firstIncompatibleKey_isNamed_compatibleOnesBeforeItAreSkipped() {
        assertThat(why("name=x&timeout=5&weight=heavy")).startsWith("weight: heavy");
    }
}
