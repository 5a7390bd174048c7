package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Which consumer and provider URLs one rule applies to, and what it sets, asked of the rule itself. */
class ConfiguratorMatchingTest {

    private static final String SERVICE = "com.example.DemoService";
    private static final URL CONSUMER = URL.valueOf("consumer://10.0.0.9/" + SERVICE + "?application=shop&side=consumer");
    private static final URL PROVIDER = URL.valueOf("weft://10.0.0.1:20880/" + SERVICE + "?timeout=1&zone=east");

    private static Configurator rule(String text) {
        return Configurator.of(URL.valueOf(text));
    }

    @Test
    void portRule_appliesToTheProviderOnThatHostAndPort_neverToTheConsumer() {
        Configurator onHost = rule("override://10.0.0.1:20880/" + SERVICE + "?timeout=5");

        assertThat(onHost.appliesToProvider(PROVIDER, CONSUMER)).isTrue();
        assertThat(onHost.appliesToProvider(PROVIDER.withHost("10.0.0.2"), CONSUMER)).isFalse();
        assertThat(onHost.appliesToProvider(PROVIDER.withPort(20881), CONSUMER)).isFalse();
        assertThat(onHost.appliesToConsumer(CONSUMER)).isFalse();
        assertThat(onHost.appliesToConsumer(CONSUMER.withPort(20880).withHost("10.0.0.1"))).isFalse();
    }

    @Test
    void portRule_stillRequiresTheConsumersServiceSideAndApplication() {
        assertThat(rule("override://10.0.0.1:20880/com.example.Other?timeout=5").appliesToProvider(PROVIDER, CONSUMER))
                .isFalse();
        assertThat(rule("override://10.0.0.1:20880/" + SERVICE + "?side=provider&timeout=5")
                .appliesToProvider(PROVIDER, CONSUMER)).isFalse();
        assertThat(rule("override://10.0.0.1:20880/" + SERVICE + "?application=billing&timeout=5")
                .appliesToProvider(PROVIDER, CONSUMER)).isFalse();
        assertThat(rule("override://10.0.0.1:20880/" + SERVICE + "?~zone=west&timeout=5")
                .appliesToProvider(PROVIDER, CONSUMER)).isFalse();
        assertThat(rule("override://10.0.0.1:20880/" + SERVICE + "?~zone=east&application=shop&side=consumer&timeout=5")
                .appliesToProvider(PROVIDER, CONSUMER)).isTrue();
    }

    @Test
    void consumerHostRule_appliesToEveryProvider_ofThatConsumerOnly() {
        Configurator rule = rule("override://10.0.0.9/" + SERVICE + "?timeout=5");

        assertThat(rule.appliesToConsumer(CONSUMER)).isTrue();
        assertThat(rule.appliesToProvider(PROVIDER, CONSUMER)).isTrue();
        URL otherConsumer = CONSUMER.withHost("10.0.0.8");
        assertThat(rule.appliesToConsumer(otherConsumer)).isFalse();
        assertThat(rule.appliesToProvider(PROVIDER, otherConsumer)).isFalse();
    }

    @Test
    void switchedOffRule_appliesToNothing() {
        Configurator off = rule("override://0.0.0.0/" + SERVICE + "?enabled=false&timeout=5");

        assertThat(off.isEnabled()).isFalse();
        assertThat(off.appliesToConsumer(CONSUMER)).isFalse();
        assertThat(off.appliesToProvider(PROVIDER, CONSUMER)).isFalse();
        assertThat(rule("override://0.0.0.0:20880/" + SERVICE + "?enabled=false&timeout=5")
                .appliesToProvider(PROVIDER, CONSUMER)).isFalse();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?timeout=5").isEnabled()).isTrue();
    }

    @Test
    void conditions_onTheTarget_wildcardMatchesAnyValueButNotAMissingKeyOtherwise() {
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?~zone=*&weight=3").appliesToProvider(PROVIDER, CONSUMER))
                .isTrue();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?~rack=*&weight=3").appliesToProvider(PROVIDER, CONSUMER))
                .isTrue();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?~rack=r1&weight=3").appliesToProvider(PROVIDER, CONSUMER))
                .isFalse();
        // A condition is read from the target: the consumer has no zone, the provider has one.
        Configurator eastOnly = rule("override://0.0.0.0/" + SERVICE + "?~zone=east&weight=3");
        assertThat(eastOnly.appliesToProvider(PROVIDER, CONSUMER)).isTrue();
        assertThat(eastOnly.appliesToConsumer(CONSUMER)).isFalse();
        assertThat(eastOnly.appliesToConsumer(CONSUMER.addParameter("zone", "east"))).isTrue();
    }

    @Test
    void service_fromTheInterfaceKeyOrThePath_wildcardOrNoneMatchesAny() {
        assertThat(rule("override://0.0.0.0/?interface=" + SERVICE + "&timeout=5").appliesToConsumer(CONSUMER)).isTrue();
        assertThat(rule("override://0.0.0.0/com.example.Other?interface=" + SERVICE + "&timeout=5")
                .appliesToConsumer(CONSUMER)).isTrue();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?interface=com.example.Other&timeout=5")
                .appliesToConsumer(CONSUMER)).isFalse();
        assertThat(rule("override://0.0.0.0/*?timeout=5").appliesToConsumer(CONSUMER)).isTrue();
        assertThat(rule("override://0.0.0.0?timeout=5").appliesToConsumer(CONSUMER)).isTrue();
        assertThat(rule("override://0.0.0.0/com.example.Other?timeout=5").appliesToConsumer(CONSUMER)).isFalse();
    }

    @Test
    void groupAndVersion_mustEqualTheConsumers_wildcardMatchesAny() {
        URL blue2 = CONSUMER.addParameter("group", "blue").addParameter("version", "2");

        assertThat(rule("override://0.0.0.0/" + SERVICE + "?group=blue&version=2&timeout=5").appliesToConsumer(blue2))
                .isTrue();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?group=*&version=*&timeout=5").appliesToConsumer(blue2))
                .isTrue();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?group=green&timeout=5").appliesToConsumer(blue2)).isFalse();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?version=3&timeout=5").appliesToConsumer(blue2)).isFalse();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?group=blue&timeout=5").appliesToConsumer(CONSUMER))
                .isFalse();
    }

    @Test
    void application_fromTheKeyOrTheUserName_wildcardMatchesAny() {
        assertThat(rule("override://shop@0.0.0.0/" + SERVICE + "?timeout=5").appliesToConsumer(CONSUMER)).isTrue();
        assertThat(rule("override://billing@0.0.0.0/" + SERVICE + "?timeout=5").appliesToConsumer(CONSUMER)).isFalse();
        assertThat(rule("override://billing@0.0.0.0/" + SERVICE + "?application=shop&timeout=5")
                .appliesToConsumer(CONSUMER)).isTrue();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?application=*&timeout=5").appliesToConsumer(CONSUMER))
                .isTrue();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?application=shop&timeout=5")
                .appliesToConsumer(CONSUMER.removeParameter("application"))).isFalse();
    }

    @Test
    void side_consumerOrWildcardApplies_providerDoesNot() {
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?side=consumer&timeout=5").appliesToConsumer(CONSUMER)).isTrue();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?side=*&timeout=5").appliesToConsumer(CONSUMER)).isTrue();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?side=provider&timeout=5").appliesToConsumer(CONSUMER))
                .isFalse();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?side=provider&timeout=5").appliesToProvider(PROVIDER, CONSUMER))
                .isFalse();
    }

    @Test
    void parameters_leaveOutControlKeysAndConditions() {
        Configurator rule = rule("override://0.0.0.0/" + SERVICE + "?category=configurators&dynamic=false&check=false"
                + "&anyhost=true&enabled=true&priority=2&application=shop&side=consumer&interface=" + SERVICE
                + "&group=g&version=1&~zone=east&timeout=5&sayHello.mock=force:return x");

        assertThat(rule.getParameters()).containsOnlyKeys("timeout", "sayHello.mock");
        assertThat(rule.hasParameters()).isTrue();
        assertThat(rule("override://0.0.0.0/" + SERVICE + "?category=configurators&priority=1").hasParameters()).isFalse();
    }

    @Test
    void override_setsEveryParameter_absent_onlyTheMissingOnes() {
        URL target = URL.valueOf("weft://10.0.0.1:20880/" + SERVICE + "?timeout=1");

        assertThat(rule("override://0.0.0.0/" + SERVICE + "?timeout=5&retries=2").configure(target).getParameters())
                .containsEntry("timeout", "5").containsEntry("retries", "2");
        assertThat(rule("absent://0.0.0.0/" + SERVICE + "?timeout=5&retries=2").configure(target).getParameters())
                .containsEntry("timeout", "1").containsEntry("retries", "2");
    }

    @Test
    void of_refusesARuleWithoutHost_namingTheRule() {
        assertThatThrownBy(() -> rule("override:///" + SERVICE + "?timeout=5"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("override rule host: none (expected: 0.0.0.0, a consumer host, or a provider host:port)")
                .hasMessageContaining(SERVICE);
    }

    @Test
    void of_refusesDubbo27Keys_namingTheKeyAndTheSupportedChoice() {
        for (String key : new String[] {"compatible_config", "configVersion", "providerAddresses"}) {
            assertThatThrownBy(() -> rule("override://0.0.0.0/" + SERVICE + "?" + key + "=x&timeout=5"))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("override rule key: " + key + " (expected: none of ")
                    .hasMessageContaining("which Weft does not implement) in override://0.0.0.0/" + SERVICE);
        }
    }

    @Test
    void of_refusesFlagsThatAreNotTrueOrFalse() {
        assertThatThrownBy(() -> rule("override://0.0.0.0/" + SERVICE + "?enabled=maybe&timeout=5"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("enabled");
        assertThatThrownBy(() -> rule("override://0.0.0.0/" + SERVICE + "?disabled=perhaps"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("disabled");
        assertThatThrownBy(() -> rule("override://0.0.0.0/" + SERVICE + "?priority=1.5&timeout=5"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("priority");
    }

    @Test
    void of_acceptsBothRuleProtocols_andRefusesOthers() {
        assertThat(rule("absent://0.0.0.0/" + SERVICE + "?timeout=5").getUrl().getProtocol()).isEqualTo("absent");
        assertThatThrownBy(() -> rule("empty://0.0.0.0/" + SERVICE + "?timeout=5"))
                .hasMessage("override rule protocol: empty (expected: override or absent) in empty://0.0.0.0/"
                        + SERVICE + "?timeout=5");
    }

    @Test
    void equality_isTheRuleText() {
        Configurator a = rule("override://0.0.0.0/" + SERVICE + "?timeout=5");
        Configurator same = rule("override://0.0.0.0/" + SERVICE + "?timeout=5");
        Configurator other = rule("override://0.0.0.0/" + SERVICE + "?timeout=6");

        assertThat(a).isEqualTo(same).hasSameHashCodeAs(same).isNotEqualTo(other).isNotEqualTo("x");
        assertThat(a.toString()).isEqualTo(a.getUrl().toString()).contains("timeout=5");
    }
}
