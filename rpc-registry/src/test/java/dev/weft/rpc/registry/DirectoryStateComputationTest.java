package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

/** The state a directory publishes, computed from the raw lists alone ({@link DirectoryState#compute}). */
class DirectoryStateComputationTest {

    private static final String SERVICE = "com.example.DemoService";
    private static final URL CONSUMER = URL.valueOf("consumer://10.0.0.9/" + SERVICE
            + "?application=shop&side=consumer&timeout=300&weight=1&group=g");
    private static final URL P1 = URL.valueOf("weft://10.0.0.1:1/" + SERVICE + "?group=g&weight=100&timeout=5");
    private static final URL P2 = URL.valueOf("weft://10.0.0.2:2/" + SERVICE + "?group=g&weight=100");

    private final List<String> problems = new ArrayList<>();

    private DirectoryState compute(List<URL> providers, List<URL> rules, DirectoryState previous) {
        return DirectoryState.compute(CONSUMER, providers, OverrideRules.parse(rules, problems::add),
                url -> !"nosuch".equals(url.getProtocol()), problems::add, previous);
    }

    private static URL rule(String address, String query) {
        return URL.valueOf("override://" + address + "/" + SERVICE + "?" + query);
    }

    private static List<String> addresses(DirectoryState state) {
        return state.providers().stream().map(p -> p.viewUrl().getAddress()).toList();
    }

    @Test
    void referUrl_isTheProviderWithTheConsumersParameters_exceptTheInstanceKeys() {
        URL merged = DirectoryState.merge(URL.valueOf("weft://10.0.0.1:1/" + SERVICE
                + "?group=a&version=1&category=providers&dynamic=true&enabled=true&disabled=false"
                + "&weight=100&warmup=60000&timestamp=42&timeout=5"),
                URL.valueOf("consumer://10.0.0.9/" + SERVICE + "?group=b&version=2&category=consumers&dynamic=false"
                        + "&enabled=false&disabled=true&weight=1&warmup=1&timestamp=1&timeout=300&application=shop"));

        assertThat(merged.getParameters()).containsEntry("group", "a").containsEntry("version", "1")
                .containsEntry("category", "providers").containsEntry("dynamic", "true")
                .containsEntry("enabled", "true").containsEntry("disabled", "false").containsEntry("weight", "100")
                .containsEntry("warmup", "60000").containsEntry("timestamp", "42")
                .containsEntry("timeout", "300").containsEntry("application", "shop");
        assertThat(merged.getAddress()).isEqualTo("10.0.0.1:1");
        assertThat(merged.getProtocol()).isEqualTo("weft");
    }

    @Test
    void providersOfOtherServiceKeys_emptyMarkers_andUnreferableProtocols_areLeftOut() {
        URL otherGroup = URL.valueOf("weft://10.0.0.3:3/" + SERVICE + "?group=h");
        URL unreferable = URL.valueOf("nosuch://10.0.0.4:4/" + SERVICE + "?group=g");
        DirectoryState state = compute(List.of(Categories.emptyMarker(CONSUMER, Categories.PROVIDERS), P1, otherGroup,
                unreferable, P2), List.of(), null);

        assertThat(addresses(state)).containsExactly("10.0.0.1:1", "10.0.0.2:2");
        assertThat(state.disabledCount()).isZero();
        assertThat(problems).containsExactly("Provider left out: protocol nosuch of " + unreferable
                + " (expected: a Protocol extension of this consumer)");
    }

    @Test
    void viewUrl_hasTheRules_referUrlDoesNot() {
        DirectoryState state = compute(List.of(P1), List.of(rule("0.0.0.0", "timeout=7")), null);

        DirectoryState.Provider provider = state.providers().get(0);
        assertThat(provider.referUrl().getParameter("timeout")).isEqualTo("300");
        assertThat(provider.viewUrl().getParameter("timeout")).isEqualTo("7");
        assertThat(provider.applied()).hasSize(1);
        assertThat(state.consumerUrl().getParameter("timeout")).isEqualTo("7");
    }

    @Test
    void disabledFlag_orEnabledFalse_takesAProviderOut_andCountsIt() {
        URL disabledByRegistration = URL.valueOf("weft://10.0.0.3:3/" + SERVICE + "?group=g&enabled=false");
        URL enabledButNotDisabled = URL.valueOf("weft://10.0.0.4:4/" + SERVICE + "?group=g&enabled=false&disabled=false");
        DirectoryState state = compute(List.of(P1, P2, disabledByRegistration, enabledButNotDisabled),
                List.of(rule("10.0.0.1:1", "disabled=true")), null);

        assertThat(addresses(state)).containsExactly("10.0.0.2:2", "10.0.0.4:4");
        assertThat(state.disabledCount()).isEqualTo(2);
        assertThat(problems).isEmpty();
    }

    @Test
    void providerWithAnUnreadableFlag_isLeftOut_withTheReason() {
        URL bad = URL.valueOf("weft://10.0.0.3:3/" + SERVICE + "?group=g&enabled=sometimes");
        DirectoryState state = compute(List.of(P1, bad), List.of(), null);

        assertThat(addresses(state)).containsExactly("10.0.0.1:1");
        assertThat(state.disabledCount()).isEqualTo(1);
        assertThat(problems).singleElement().asString().startsWith("Provider left out: ").contains("enabled");
    }

    @Test
    void ruleIncompatibleWithAProvider_isLeftOutEverywhere_namingTheProvider() {
        URL negativeWeight = rule("0.0.0.0:2", "weight=-5&timeout=9");
        DirectoryState state = compute(List.of(P1, P2), List.of(negativeWeight, rule("0.0.0.0", "retries=2")), null);

        assertThat(state.providers()).allSatisfy(p -> {
            assertThat(p.viewUrl().getParameter("weight")).isEqualTo("100");
            assertThat(p.viewUrl().getParameter("retries")).isEqualTo("2");
        });
        assertThat(problems).singleElement().asString()
                .startsWith("Override rule left out: weight: -5 (expected: >= 0, like the current value 100) for weft://10.0.0.2:2/")
                .endsWith(" in " + negativeWeight);
    }

    @Test
    void ruleIncompatibleWithTheConsumer_isLeftOut_namingTheConsumer() {
        URL rule = rule("0.0.0.0", "timeout=soon");
        DirectoryState state = compute(List.of(P1), List.of(rule), null);

        assertThat(state.consumerUrl().getParameter("timeout")).isEqualTo("300");
        assertThat(state.providers().get(0).viewUrl().getParameter("timeout")).isEqualTo("300");
        assertThat(problems).containsExactly("Override rule left out: timeout: soon (expected: an integer, like the "
                + "current value 300) for " + CONSUMER + " in " + rule);
    }

    @Test
    void ruleForOneProvider_isNotJudgedByAnotherProvidersValues() {
        URL p3 = URL.valueOf("weft://10.0.0.3:3/" + SERVICE + "?group=g&shard=7");
        DirectoryState state = compute(List.of(P1, p3), List.of(rule("10.0.0.1:1", "shard=blue")), null);

        assertThat(state.providers()).extracting(p -> p.viewUrl().getParameter("shard")).containsExactly("blue", "7");
        assertThat(problems).isEmpty();
    }

    @Test
    void previousState_onlySavesWork_theResultIsTheSame() {
        List<URL> rules = List.of(rule("0.0.0.0:1", "weight=50"));
        DirectoryState first = compute(List.of(P1, P2), rules, null);
        DirectoryState again = compute(List.of(P1, P2), rules, first);
        DirectoryState fresh = compute(List.of(P1, P2), rules, null);

        assertThat(again.consumerUrl()).isSameAs(first.consumerUrl()).isEqualTo(fresh.consumerUrl());
        assertThat(again.providers()).isEqualTo(fresh.providers());
        for (int i = 0; i < 2; i++) {
            assertThat(again.providers().get(i).viewUrl()).isSameAs(first.providers().get(i).viewUrl());
            assertThat(again.providers().get(i).referUrl()).isSameAs(first.providers().get(i).referUrl());
        }

        DirectoryState changed = compute(List.of(P1, P2), List.of(rule("0.0.0.0:1", "weight=60")), again);
        assertThat(changed.providers().get(0).viewUrl().getParameter("weight")).isEqualTo("60");
        assertThat(changed.providers().get(1).viewUrl()).isSameAs(first.providers().get(1).viewUrl());
        assertThat(changed.consumerUrl()).isSameAs(first.consumerUrl());

        DirectoryState consumerRule = compute(List.of(P1, P2), List.of(rule("0.0.0.0", "retries=3")), changed);
        assertThat(consumerRule.consumerUrl().getParameter("retries")).isEqualTo("3");
        assertThat(consumerRule.providers()).allSatisfy(p -> assertThat(p.viewUrl().getParameter("retries")).isEqualTo("3"));
    }

    @Test
    void providersJoiningAndLeaving_underTheSameRules_giveWhatComputingEverythingGives() {
        // A pool with every kind of provider: listed, disabled, a bad flag, another group, a
        // protocol the consumer lacks, a second raw URL with P1's refer URL, and one whose integer
        // shard makes the shard rule incompatible (the rule then leaves the whole state).
        List<URL> pool = new ArrayList<>(List.of(P1, P2,
                URL.valueOf("weft://10.0.0.1:1/" + SERVICE + "?group=g&weight=100&timeout=6"),
                URL.valueOf("weft://10.0.0.3:3/" + SERVICE + "?group=g&disabled=true"),
                URL.valueOf("weft://10.0.0.4:4/" + SERVICE + "?group=g&enabled=false&disabled=false"),
                URL.valueOf("weft://10.0.0.5:5/" + SERVICE + "?group=g&disabled=maybe"),
                URL.valueOf("weft://10.0.0.6:6/" + SERVICE + "?group=h"),
                URL.valueOf("nosuch://10.0.0.7:7/" + SERVICE + "?group=g"),
                URL.valueOf("weft://10.0.0.8:8/" + SERVICE + "?group=g&shard=7")));
        for (int i = 9; i < 20; i++) {
            pool.add(URL.valueOf("weft://10.0.0." + i + ":" + i + "/" + SERVICE + "?group=g&weight=" + i * 10));
        }
        List<List<URL>> ruleSets = List.of(List.of(),
                List.of(rule("0.0.0.0:1", "weight=50"), rule("10.0.0.9:9", "disabled=true")),
                List.of(rule("0.0.0.0", "shard=blue"), rule("0.0.0.0", "retries=3")),
                List.of(rule("10.0.0.3:3", "disabled=false"), rule("0.0.0.0:12", "weight=-5")));
        Random random = new Random(14);
        List<URL> present = new ArrayList<>();
        int ruleSet = 0;
        DirectoryState previous = null;
        for (int step = 0; step < 400; step++) {
            boolean sameRules = random.nextInt(10) != 0;
            if (!sameRules) {
                ruleSet = random.nextInt(ruleSets.size());
            }
            List<URL> rules = ruleSets.get(ruleSet);
            URL toggled = pool.get(random.nextInt(pool.size()));
            if (!present.remove(toggled)) {
                present.add(random.nextInt(present.size() + 1), toggled);
            }
            List<String> patchedProblems = new ArrayList<>();
            List<String> freshProblems = new ArrayList<>();
            DirectoryState patched = DirectoryState.compute(CONSUMER, List.copyOf(present),
                    OverrideRules.parse(rules, patchedProblems::add), url -> !"nosuch".equals(url.getProtocol()),
                    patchedProblems::add, previous);
            DirectoryState fresh = DirectoryState.compute(CONSUMER, List.copyOf(present),
                    OverrideRules.parse(rules, freshProblems::add), url -> !"nosuch".equals(url.getProtocol()),
                    freshProblems::add, null);

            String at = "step " + step + ", providers " + present + ", rules " + rules;
            assertThat(patched.providers()).as(at).isEqualTo(fresh.providers());
            assertThat(patched.consumerUrl()).as(at).isEqualTo(fresh.consumerUrl());
            assertThat(patched.disabledCount()).as(at).isEqualTo(fresh.disabledCount());
            assertThat(patchedProblems).as(at).containsExactlyInAnyOrderElementsOf(freshProblems);
            // Unchanged providers keep what the previous state found (unless the shard rule came
            // or went with the provider that makes it incompatible: that changes every provider;
            // and the provider at 10.0.0.1:1 has two raw URLs, so the one listed may be new).
            if (sameRules && previous != null && ruleSet != 2) {
                for (DirectoryState.Provider provider : patched.providers()) {
                    if (provider.referUrl().getPort() == 1) {
                        continue;
                    }
                    previous.providers().stream().filter(p -> p.referUrl().equals(provider.referUrl())).findFirst()
                            .ifPresent(last -> assertThat(provider).as(at + ": kept " + last).isSameAs(last));
                }
            }
            previous = patched;
        }
    }
}
