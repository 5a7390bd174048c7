package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** {@link RuleCheck}: a rule is checked with the consumers' own checks, before anything is written. */
class RuleCheckTest {

    private final ExtensionDirector director = new ExtensionDirector(RuleCheckTest.class.getClassLoader());
    private final RuleCheck check = RuleCheck.of(director);

    @AfterEach
    void close() {
        director.close();
    }

    private static URL rule(String query) {
        return URL.valueOf("override://0.0.0.0/com.example.Greeter?category=configurators&dynamic=false&" + query);
    }

    @Test
    void ruleAConsumerApplies_hasNoProblem() {
        assertThat(check.problems(rule("timeout=300&retries=4&loadbalance=roundrobin&find.mock=force:return+null"))).isEmpty();
        assertThat(check.problems(URL.valueOf("override://10.0.0.7:20880/com.example.Greeter?weight=50&tag=gray"))).isEmpty();
    }

    @Test
    void unknownKey_isNamed_withTheClosestKnownKey() {
        assertThat(check.problems(rule("whoami.mokc=force:return+x")))
                .containsExactly("unknown key whoami.mokc (did you mean 'whoami.mock'?); no module on the class path reads it");
        assertThat(check.problems(rule("loadbalnce=random"))).singleElement().asString()
                .contains("loadbalnce (did you mean 'loadbalance'?)");
    }

    @Test
    void badValues_areRefused_byTheReadersOwnChecks() {
        assertThat(check.problems(rule("retries=many"))).singleElement().asString().contains("retries").contains("many");
        assertThat(check.problems(rule("find.retries=many"))).singleElement().asString().contains("many");
        assertThat(check.problems(rule("loadbalance=nosuch"))).singleElement().asString().contains("loadbalance: nosuch");
        assertThat(check.problems(rule("timeout=3s"))).singleElement().asString().contains("timeout: 3s (expected: milliseconds > 0)");
        assertThat(check.problems(rule("weight=-5"))).singleElement().asString().contains("weight: -5");
        assertThat(check.problems(rule("find.mock=force:return+%7Bnot+json"))).singleElement().asString().contains("{not json");
    }

    @Test
    void ruleThatCannotBeRead_orSetsNothing_isRefused() {
        assertThat(check.problems(rule("priority=high&timeout=1"))).singleElement().asString().contains("priority: high");
        assertThat(check.problems(rule("enabled=true"))).singleElement().asString().contains("sets nothing");
    }
}
