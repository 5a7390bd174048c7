package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/** How a set of rules is read, ordered and applied: {@link OverrideRules} with rule URLs as an operator writes them. */
class OverridePrecedenceTest {

    private static final String SERVICE = "com.example.DemoService";
    private static final URL CONSUMER = URL.valueOf("consumer://10.0.0.9/" + SERVICE + "?application=shop&side=consumer");
    private static final URL PROVIDER = URL.valueOf("weft://10.0.0.1:20880/" + SERVICE + "?timeout=1");

    private static URL url(String text) {
        return URL.valueOf(text);
    }

    private static List<String> timeouts(OverrideRules rules) {
        return rules.getRules().stream().map(r -> r.getParameters().get("timeout")).toList();
    }

    @Test
    void rulesAreOrdered_generalToSpecific_whateverTheOrderTheyArrive() {
        List<URL> written = List.of(
                url("override://10.0.0.1:20880/" + SERVICE + "?timeout=6"),
                url("override://0.0.0.0:20880/" + SERVICE + "?timeout=5"),
                url("override://10.0.0.9/" + SERVICE + "?application=shop&timeout=4"),
                url("override://10.0.0.9/" + SERVICE + "?timeout=3"),
                url("override://0.0.0.0/" + SERVICE + "?application=shop&priority=9&timeout=2"),
                url("override://0.0.0.0/" + SERVICE + "?application=shop&timeout=1"),
                url("override://0.0.0.0/" + SERVICE + "?priority=9&timeout=0"));
        List<String> expected = List.of("0", "1", "2", "3", "4", "5", "6");

        assertThat(timeouts(OverrideRules.parse(written, p -> { }))).isEqualTo(expected);
        List<URL> reversed = new ArrayList<>(written);
        Collections.reverse(reversed);
        assertThat(timeouts(OverrideRules.parse(reversed, p -> { }))).isEqualTo(expected);
    }

    @Test
    void equallySpecificRules_withTheSamePriority_areOrderedByTheirText() {
        URL a = url("override://0.0.0.0/" + SERVICE + "?timeout=10");
        URL b = url("override://0.0.0.0/" + SERVICE + "?timeout=20");

        assertThat(timeouts(OverrideRules.parse(List.of(b, a), p -> { }))).containsExactly("10", "20");
        assertThat(OverrideRules.parse(List.of(a, b), p -> { }).configureConsumer(CONSUMER).getParameter("timeout"))
                .isEqualTo("20");
        assertThat(OverrideRules.parse(List.of(b, a), p -> { }).configureConsumer(CONSUMER).getParameter("timeout"))
                .isEqualTo("20");
    }

    @Test
    void negativePriority_losesToTheDefault() {
        OverrideRules rules = OverrideRules.parse(List.of(
                url("override://0.0.0.0/" + SERVICE + "?timeout=7"),
                url("override://0.0.0.0/" + SERVICE + "?priority=-1&timeout=8")), p -> { });

        assertThat(rules.configureConsumer(CONSUMER).getParameter("timeout")).isEqualTo("7");
    }

    @Test
    void parse_skipsEmptyMarkersAndDuplicates_andSilentlyRulesThatDoNothing() {
        List<String> problems = new ArrayList<>();
        URL rule = url("override://0.0.0.0/" + SERVICE + "?timeout=5");
        OverrideRules rules = OverrideRules.parse(List.of(
                Categories.emptyMarker(CONSUMER, Categories.CONFIGURATORS),
                rule, rule,
                url("override://0.0.0.0/" + SERVICE + "?enabled=false&timeout=6"),
                url("override://0.0.0.0/" + SERVICE + "?priority=3")), problems::add);

        assertThat(rules.getRules()).extracting(Configurator::getUrl).containsExactly(rule);
        assertThat(rules.isEmpty()).isFalse();
        assertThat(problems).isEmpty();
        assertThat(rules.toString()).isEqualTo("[" + rule + "]");
    }

    @Test
    void parse_reportsEachUnreadableRule_withItsReason_andKeepsTheOthers() {
        List<String> problems = new ArrayList<>();
        OverrideRules rules = OverrideRules.parse(List.of(
                url("route://0.0.0.0/" + SERVICE + "?timeout=5"),
                url("override://0.0.0.0/" + SERVICE + "?retries=2")), problems::add);

        assertThat(problems).containsExactly("Override rule left out: override rule protocol: route "
                + "(expected: override or absent) in route://0.0.0.0/" + SERVICE + "?timeout=5");
        assertThat(rules.configureConsumer(CONSUMER).getParameter("retries")).isEqualTo("2");
    }

    @Test
    void parse_ofNothingUsable_isNoRules() {
        OverrideRules rules = OverrideRules.parse(List.of(Categories.emptyMarker(CONSUMER, Categories.CONFIGURATORS)),
                p -> { });

        assertThat(rules.isEmpty()).isTrue();
        assertThat(rules.getRules()).isEmpty();
        assertThat(rules).isSameAs(OverrideRules.none());
        assertThat(rules.configureConsumer(CONSUMER)).isSameAs(CONSUMER);
        assertThat(rules.configureProvider(PROVIDER, CONSUMER)).isSameAs(PROVIDER);
    }

    @Test
    void configureConsumer_appliesOnlyTheRulesForTheConsumer_theLastOneWinning() {
        OverrideRules rules = OverrideRules.parse(List.of(
                url("override://0.0.0.0/" + SERVICE + "?timeout=5&retries=1"),
                url("override://10.0.0.9/" + SERVICE + "?timeout=6"),
                url("override://10.0.0.8/" + SERVICE + "?timeout=7"),
                url("override://0.0.0.0:20880/" + SERVICE + "?timeout=8")), p -> { });

        URL configured = rules.configureConsumer(CONSUMER);
        assertThat(configured.getParameter("timeout")).isEqualTo("6");
        assertThat(configured.getParameter("retries")).isEqualTo("1");
    }

    @Test
    void configureProvider_appliesConsumerRulesThenInstanceRules() {
        OverrideRules rules = OverrideRules.parse(List.of(
                url("override://0.0.0.0:20880/" + SERVICE + "?weight=50"),
                url("override://10.0.0.2:20880/" + SERVICE + "?weight=60"),
                url("override://0.0.0.0/" + SERVICE + "?weight=40&timeout=5")), p -> { });

        URL provider = rules.configureProvider(PROVIDER, CONSUMER);
        assertThat(provider.getParameter("weight")).isEqualTo("50");
        assertThat(provider.getParameter("timeout")).isEqualTo("5");
        assertThat(rules.applicableToProvider(PROVIDER, CONSUMER)).hasSize(2);
        assertThat(rules.applicableToProvider(PROVIDER.withPort(1), CONSUMER)).hasSize(1);
    }

    @Test
    void without_dropsTheGivenRules_andNoRulesLeftIsNone() {
        URL first = url("override://0.0.0.0/" + SERVICE + "?timeout=5");
        URL second = url("override://10.0.0.9/" + SERVICE + "?timeout=6");
        OverrideRules rules = OverrideRules.parse(List.of(first, second), p -> { });
        Configurator firstRule = rules.getRules().get(0);

        assertThat(rules.without(Set.of())).isSameAs(rules);
        OverrideRules rest = rules.without(Set.of(firstRule));
        assertThat(rest.getRules()).extracting(Configurator::getUrl).containsExactly(second);
        assertThat(rest.configureConsumer(CONSUMER).getParameter("timeout")).isEqualTo("6");
        assertThat(rules.without(Set.copyOf(rules.getRules())).isEmpty()).isTrue();
        assertThat(rules.without(Set.copyOf(rules.getRules()))).isSameAs(OverrideRules.none());
    }
}
