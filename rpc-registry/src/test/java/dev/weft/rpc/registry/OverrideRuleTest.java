package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The override rule table, seen through a directory fed by a memory registry. */
class OverrideRuleTest {

    private final Fixture fixture = new Fixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    private RegistryDirectory<DemoService> twoProviders() {
        fixture.provider("10.20.30.140:9091", "timeout=1");
        fixture.provider("10.20.30.141:9092", "timeout=1");
        return fixture.directory();
    }

    @Test
    void anyHostWithoutPort_appliesToConsumerAndEveryProvider() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("0.0.0.0", "timeout=3&loadbalance=roundrobin");

        assertThat(directory.getUrl().getParameter("loadbalance")).isEqualTo("roundrobin");
        assertThat(Fixture.providerValues(directory, "timeout"))
                .isEqualTo(Map.of("10.20.30.140:9091", "3", "10.20.30.141:9092", "3"));
    }

    @Test
    void providerAddressRule_beatsGeneralRule_andAppliesOnlyToThatProvider() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("10.20.30.141:9092", "timeout=4");
        fixture.override("0.0.0.0", "timeout=3");

        assertThat(Fixture.providerValues(directory, "timeout"))
                .isEqualTo(Map.of("10.20.30.140:9091", "3", "10.20.30.141:9092", "4"));
        assertThat(directory.getUrl().getParameter("timeout")).isEqualTo("3");
    }

    @Test
    void anyHostWithPort_appliesToProvidersOnThatPort_notToTheConsumer() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("0.0.0.0:9091", "weight=50");

        assertThat(Fixture.providerValues(directory, "weight"))
                .isEqualTo(Map.of("10.20.30.140:9091", "50", "10.20.30.141:9092", "null"));
        assertThat(directory.getUrl().hasParameter("weight")).isFalse();
    }

    @Test
    void hostWithoutPort_targetsTheConsumerMachine_notAProvider() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("10.20.30.140", "timeout=7");
        assertThat(directory.getUrl().hasParameter("timeout")).isFalse();
        assertThat(Fixture.providerValues(directory, "timeout"))
                .isEqualTo(Map.of("10.20.30.140:9091", "1", "10.20.30.141:9092", "1"));

        fixture.override("10.20.30.1", "timeout=8");
        assertThat(directory.getUrl().getParameter("timeout")).isEqualTo("8");
        assertThat(Fixture.providerValues(directory, "timeout"))
                .isEqualTo(Map.of("10.20.30.140:9091", "8", "10.20.30.141:9092", "8"));
    }

    @Test
    void consumerHostRule_beatsAnyHostRule() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("10.20.30.1", "retries=5");
        fixture.override("0.0.0.0", "retries=1");

        assertThat(directory.getUrl().getParameter("retries")).isEqualTo("5");
    }

    @Test
    void priority_higherWinsAmongEquallySpecificRules_whateverTheOrder() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("0.0.0.0", "priority=2&loadbalance=leastactive");
        fixture.override("0.0.0.0", "priority=1&loadbalance=random");
        assertThat(directory.getUrl().getParameter("loadbalance")).isEqualTo("leastactive");

        fixture.override("0.0.0.0", "priority=3&loadbalance=p2c");
        assertThat(directory.getUrl().getParameter("loadbalance")).isEqualTo("p2c");
    }

    @Test
    void specificity_beatsPriority() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("10.20.30.140:9091", "weight=10");
        fixture.override("0.0.0.0", "priority=100&weight=90");

        assertThat(Fixture.providerValues(directory, "weight"))
                .isEqualTo(Map.of("10.20.30.140:9091", "10", "10.20.30.141:9092", "90"));
    }

    @Test
    void enabledFalse_switchesTheRuleOff() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("0.0.0.0", "enabled=false&timeout=9");

        assertThat(directory.getUrl().hasParameter("timeout")).isFalse();
        assertThat(Fixture.providerValues(directory, "timeout"))
                .isEqualTo(Map.of("10.20.30.140:9091", "1", "10.20.30.141:9092", "1"));
        assertThat(directory.getProblemCount()).isZero();
    }

    @Test
    void enabledFalseOnAnyHost_disablesNoProvider() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("0.0.0.0", "enabled=false");

        assertThat(Fixture.addresses(directory)).containsExactly("10.20.30.140:9091", "10.20.30.141:9092");
    }

    @Test
    void disabledTrue_takesOneProviderOut_andRemovingTheRuleBringsItBack() {
        RegistryDirectory<DemoService> directory = twoProviders();
        var rule = fixture.override("10.20.30.140:9091", "disabled=true");
        assertThat(Fixture.addresses(directory)).containsExactly("10.20.30.141:9092");

        fixture.registry.unregister(rule);
        assertThat(Fixture.addresses(directory)).containsExactly("10.20.30.140:9091", "10.20.30.141:9092");
    }

    @Test
    void disabledFalse_reEnablesAProviderThatRegisteredDisabled() {
        fixture.provider("10.20.30.140:9091", "enabled=false");
        fixture.provider("10.20.30.141:9092", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        assertThat(Fixture.addresses(directory)).containsExactly("10.20.30.141:9092");

        fixture.override("10.20.30.140:9091", "disabled=false");
        assertThat(Fixture.addresses(directory)).containsExactly("10.20.30.140:9091", "10.20.30.141:9092");
    }

    @Test
    void disablingEveryProvider_isHonoured_andUndone() {
        RegistryDirectory<DemoService> directory = twoProviders();
        var rule = fixture.override("0.0.0.0", "disabled=true");
        assertThat(directory.getInvokers()).isEmpty();
        assertThat(directory.isAvailable()).isFalse();

        fixture.registry.unregister(rule);
        assertThat(directory.getInvokers()).hasSize(2);
    }

    @Test
    void application_mustMatchTheConsumersApplication() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("0.0.0.0", "application=billing&timeout=5");
        assertThat(directory.getUrl().hasParameter("timeout")).isFalse();

        fixture.override("0.0.0.0", "application=shop&retries=4");
        fixture.override("0.0.0.0", "application=*&sticky=true");
        assertThat(directory.getUrl().getParameter("retries")).isEqualTo("4");
        assertThat(directory.getUrl().getParameter("sticky")).isEqualTo("true");
    }

    @Test
    void applicationRule_beatsRuleForEveryApplication() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("0.0.0.0", "application=shop&retries=4");
        fixture.override("0.0.0.0", "retries=0");

        assertThat(directory.getUrl().getParameter("retries")).isEqualTo("4");
    }

    @Test
    void side_providerRulesAreNotAppliedByConsumers() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("0.0.0.0", "side=provider&timeout=5");
        fixture.override("0.0.0.0", "side=consumer&retries=3");

        assertThat(directory.getUrl().hasParameter("timeout")).isFalse();
        assertThat(directory.getUrl().getParameter("retries")).isEqualTo("3");
    }

    @Test
    void methodLevelKeys_reachTheConsumerUrl_forThatMethodOnly() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("0.0.0.0", "sayHello.mock=force:return degraded&sayHello.timeout=200");

        assertThat(directory.getUrl().getMethodParameter("sayHello", "mock")).isEqualTo("force:return degraded");
        assertThat(directory.getUrl().getMethodParameter("sayBye", "mock")).isNull();
        assertThat(directory.getUrl().getMethodParameter("sayHello", "timeout", 0)).isEqualTo(200);
    }

    @Test
    void seedCommand_nodeNameAsTypedInZkCli_forcesTheMock() {
        RegistryDirectory<DemoService> directory = twoProviders();
        String node = "override%3A%2F%2F0.0.0.0%2F" + Fixture.SERVICE
                + "%3Fcategory%3Dconfigurators%26dynamic%3Dfalse%26sayHello.mock%3Dforce%3Areturn+degraded";
        URL rule = URL.valueOf(URLDecoder.decode(node, StandardCharsets.UTF_8));
        fixture.registry.register(rule);
        assertThat(directory.getUrl().getMethodParameter("sayHello", "mock")).isEqualTo("force:return degraded");

        fixture.registry.unregister(rule);
        assertThat(directory.getUrl()).isEqualTo(directory.getConsumerUrl());
    }

    @Test
    void conditionKeys_restrictTheRuleToMatchingTargets() {
        fixture.provider("10.20.30.140:9091", "zone=east");
        fixture.provider("10.20.30.141:9092", "zone=west");
        RegistryDirectory<DemoService> directory = fixture.directory();
        fixture.override("0.0.0.0", "~zone=east&weight=10");

        assertThat(Fixture.providerValues(directory, "weight"))
                .isEqualTo(Map.of("10.20.30.140:9091", "10", "10.20.30.141:9092", "null"));
    }

    @Test
    void absentRule_setsOnlyMissingKeys() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.registry.register(URL.valueOf(
                "absent://0.0.0.0/" + Fixture.SERVICE + "?category=configurators&timeout=50&weight=70"));

        assertThat(Fixture.providerValues(directory, "timeout"))
                .isEqualTo(Map.of("10.20.30.140:9091", "1", "10.20.30.141:9092", "1"));
        assertThat(Fixture.providerValues(directory, "weight"))
                .isEqualTo(Map.of("10.20.30.140:9091", "70", "10.20.30.141:9092", "70"));
    }

    @Test
    void ruleForAnotherGroupOrVersion_isNotApplied() {
        fixture.provider("10.20.30.140:9091", "group=blue&version=2");
        RegistryDirectory<DemoService> directory = fixture.directory(Fixture.CONSUMER + "&group=blue&version=2");
        fixture.override("0.0.0.0", "group=green&timeout=5");
        fixture.override("0.0.0.0", "version=1&retries=5");
        fixture.override("0.0.0.0", "group=blue&version=2&sticky=true");

        assertThat(directory.getUrl().hasParameter("timeout")).isFalse();
        assertThat(directory.getUrl().hasParameter("retries")).isFalse();
        assertThat(directory.getUrl().getParameter("sticky")).isEqualTo("true");
    }

    @Test
    void controlKeys_areNotCopiedOntoTargets() {
        RegistryDirectory<DemoService> directory = twoProviders();
        fixture.override("0.0.0.0", "priority=1&application=shop&timeout=3");

        assertThat(directory.getUrl().getParameters())
                .doesNotContainKeys("priority", "dynamic", "enabled", "category")
                .containsEntry("application", "shop")
                .containsEntry("timeout", "3");
    }
}
