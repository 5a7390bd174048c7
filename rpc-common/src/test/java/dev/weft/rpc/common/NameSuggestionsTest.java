package dev.weft.rpc.common;

import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

class NameSuggestionsTest {

    private static final List<String> BALANCERS =
            List.of("consistenthash", "leastactive", "p2c", "random", "roundrobin", "shortestresponse");

    @Test
    void closest_typo_suggestsNearestName() {
        assertThat(NameSuggestions.closest("randon", BALANCERS)).isEqualTo("random");
        assertThat(NameSuggestions.closest("roundrobn", BALANCERS)).isEqualTo("roundrobin");
        assertThat(NameSuggestions.closest("leastactiv", BALANCERS)).isEqualTo("leastactive");
        assertThat(NameSuggestions.closest("p2", BALANCERS)).isEqualTo("p2c");
    }

    @Test
    void closest_caseOnlyDifference_winsOutright() {
        assertThat(NameSuggestions.closest("RANDOM", BALANCERS)).isEqualTo("random");
        // Turkish locale (surefire's) must not matter: dotted/dotless i.
        assertThat(NameSuggestions.closest("LEASTACTIVE", BALANCERS)).isEqualTo("leastactive");
    }

    @Test
    void closest_farFromEveryName_isNull() {
        assertThat(NameSuggestions.closest("xyz", BALANCERS)).isNull();
        assertThat(NameSuggestions.closest("weighted", BALANCERS)).isNull();
        assertThat(NameSuggestions.closest(null, BALANCERS)).isNull();
        assertThat(NameSuggestions.closest("random", List.of())).isNull();
    }

    @Test
    void closest_threshold_isMaxOfTwoAndAThirdOfTheLength() {
        // "abcdefghi" (9 chars) allows 3 edits; "abcdef" (6) allows 2.
        assertThat(NameSuggestions.closest("abcdefghi", List.of("abcdefxyz"))).isEqualTo("abcdefxyz");
        assertThat(NameSuggestions.closest("abcdefghi", List.of("abcdewxyz"))).isNull();
        assertThat(NameSuggestions.closest("abcdef", List.of("abcdxy"))).isEqualTo("abcdxy");
        assertThat(NameSuggestions.closest("abcdef", List.of("abcxyz"))).isNull();
    }

    @Test
    void closest_tie_firstInIterationOrderWins() {
        assertThat(NameSuggestions.closest("ab", new TreeSet<>(List.of("ac", "aa")))).isEqualTo("aa");
    }

    @Test
    void distance_isLevenshtein() {
        assertThat(NameSuggestions.distance("kitten", "sitting")).isEqualTo(3);
        assertThat(NameSuggestions.distance("", "abc")).isEqualTo(3);
        assertThat(NameSuggestions.distance("abc", "")).isEqualTo(3);
        assertThat(NameSuggestions.distance("same", "same")).isZero();
        assertThat(NameSuggestions.distance("flaw", "lawn")).isEqualTo(2);
        assertThat(NameSuggestions.distance("Random", "random")).isEqualTo(1);
    }
}
