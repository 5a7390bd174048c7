package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** MethodSettings as strategy authors use it: lookup order, range boundaries and the one error format. */
class MethodSettingsMessagesTest {

    private static final String CONSUMER = "consumer://10.1.0.1/com.example.Greeting";

    private static MethodSettings settings(String query, String method) {
        return new MethodSettings(URL.valueOf(CONSUMER + "?" + query), method);
    }

    @Test
    void lookup_methodKeyFirst_thenServiceKey_thenDefault_emptyCountsAsAbsent() {
        MethodSettings greet = settings("retries=4&greet.retries=7&timeout=&name=%20x%20", "greet");
        assertThat(greet.getInt("retries", 2, 0, 10)).isEqualTo(7);
        assertThat(greet.keyName("retries")).isEqualTo("greet.retries");
        assertThat(settings("retries=4&greet.retries=7", "bye").getInt("retries", 2, 0, 10)).isEqualTo(4);
        assertThat(settings("retries=4&greet.retries=7", "bye").keyName("retries")).isEqualTo("retries");
        assertThat(settings("retries=4", null).keyName("retries")).isEqualTo("retries");
        assertThat(greet.getLong("timeout", 1000, 1, Long.MAX_VALUE)).isEqualTo(1000);
        assertThat(greet.raw("timeout")).isNull();
        assertThat(greet.raw("absent")).isNull();
        assertThat(greet.getString("name", "d")).isEqualTo("x");
        assertThat(greet.getString("absent", "d")).isEqualTo("d");
        assertThat(greet.method()).isEqualTo("greet");
        assertThat(greet.url()).isEqualTo(URL.valueOf(CONSUMER + "?retries=4&greet.retries=7&timeout=&name=%20x%20"));
    }

    @Test
    void integers_theBoundsThemselvesAreAccepted_oneBeyondIsRejected() {
        assertThat(settings("n=1", null).getInt("n", 5, 1, 10)).isEqualTo(1);
        assertThat(settings("n=10", null).getInt("n", 5, 1, 10)).isEqualTo(10);
        assertThatThrownBy(() -> settings("n=0", null).getInt("n", 5, 1, 10))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("n: 0 (expected: an integer from 1 to 10) in consumer URL " + CONSUMER + "?n=0");
        assertThatThrownBy(() -> settings("n=11", null).getInt("n", 5, 1, 10))
                .hasMessage("n: 11 (expected: an integer from 1 to 10) in consumer URL " + CONSUMER + "?n=11");
    }

    @Test
    void integers_theRuleNamesOnlyTheBoundsThatExist() {
        assertThatThrownBy(() -> settings("greet.n=x", "greet").getInt("n", 5, Integer.MIN_VALUE, Integer.MAX_VALUE))
                .hasMessage("greet.n: x (expected: an integer) in consumer URL " + CONSUMER + "?greet.n=x");
        assertThatThrownBy(() -> settings("n=x", null).getLong("n", 5, Long.MIN_VALUE, Long.MAX_VALUE))
                .hasMessageStartingWith("n: x (expected: an integer) in");
        assertThatThrownBy(() -> settings("n=0", null).getLong("n", 5, 1, Long.MAX_VALUE))
                .hasMessageStartingWith("n: 0 (expected: an integer >= 1) in");
        assertThatThrownBy(() -> settings("n=-1", null).getInt("n", 5, 0, Integer.MAX_VALUE))
                .hasMessageStartingWith("n: -1 (expected: an integer >= 0) in");
        assertThatThrownBy(() -> settings("n=99999999999", null).getInt("n", 5, 0, 100))
                .hasMessageStartingWith("n: 99999999999 (expected: an integer from 0 to 100) in");
        assertThat(settings("n=-7", null).getInt("n", 5, Integer.MIN_VALUE, Integer.MAX_VALUE)).isEqualTo(-7);
    }

    @Test
    void numbers_boundsIncluded_nanAndTextRejected_ruleShowsTheRange() {
        assertThat(settings("f=1", null).getDouble("f", 0, 1, Double.MAX_VALUE)).isEqualTo(1.0);
        assertThat(settings("f=2.5", null).getDouble("f", 0, 0.5, 2.5)).isEqualTo(2.5);
        assertThat(settings("", null).getDouble("f", 0.25, 1, 2)).isEqualTo(0.25);
        assertThatThrownBy(() -> settings("f=0.5", null).getDouble("f", 0, 1, Double.MAX_VALUE))
                .hasMessage("f: 0.5 (expected: a number >= 1.0) in consumer URL " + CONSUMER + "?f=0.5");
        assertThatThrownBy(() -> settings("f=NaN", null).getDouble("f", 0, 1, Double.MAX_VALUE))
                .hasMessageStartingWith("f: NaN (expected: a number >= 1.0) in");
        assertThatThrownBy(() -> settings("f=abc", null).getDouble("f", 0, 1, Double.MAX_VALUE))
                .hasMessageStartingWith("f: abc (expected: a number >= 1.0) in");
        assertThatThrownBy(() -> settings("f=3", null).getDouble("f", 0, 0.5, 2.5))
                .hasMessageStartingWith("f: 3 (expected: a number from 0.5 to 2.5) in");
    }

    @Test
    void booleans_anyCase_otherwordsRejected() {
        assertThat(settings("s=TRUE", null).getBoolean("s", false)).isTrue();
        assertThat(settings("s=False", null).getBoolean("s", true)).isFalse();
        assertThat(settings("", null).getBoolean("s", true)).isTrue();
        assertThat(settings("", null).getBoolean("s", false)).isFalse();
        assertThatThrownBy(() -> settings("greet.s=yes", "greet").getBoolean("s", false))
                .hasMessage("greet.s: yes (expected: true or false) in consumer URL " + CONSUMER + "?greet.s=yes");
    }

    @Test
    void indexes_commaSeparatedWithSpaces_negativeOrTextRejected() {
        assertThat(settings("i=0,%202", null).getIndexes("i", "0")).containsExactly(0, 2);
        assertThat(settings("", null).getIndexes("i", "1,3")).containsExactly(1, 3);
        assertThatThrownBy(() -> settings("i=0,-1", null).getIndexes("i", "0"))
                .hasMessageStartingWith("i: 0,-1 (expected: comma-separated integers >= 0, e.g. 0,2) in");
        assertThatThrownBy(() -> settings("i=0,x", null).getIndexes("i", "0"))
                .hasMessageStartingWith("i: 0,x (expected: comma-separated integers >= 0, e.g. 0,2) in");
    }

    @Test
    void toString_namesTheMethodOrStar_andTheUrl() {
        assertThat(settings("a=1", "greet")).hasToString("MethodSettings[greet, " + CONSUMER + "?a=1]");
        assertThat(settings("a=1", null)).hasToString("MethodSettings[*, " + CONSUMER + "?a=1]");
    }
}
