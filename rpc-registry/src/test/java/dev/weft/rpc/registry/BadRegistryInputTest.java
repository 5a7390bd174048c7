package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Bad rules and provider URLs are left out, counted, and never break the rest. */
class BadRegistryInputTest {

    private final Fixture fixture = new Fixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    private RegistryDirectory<DemoService> twoProvidersWithAGoodRule() {
        fixture.provider("10.20.30.140:9091", "weight=100");
        fixture.provider("10.20.30.141:9092", "weight=100");
        RegistryDirectory<DemoService> directory = fixture.directory();
        fixture.override("0.0.0.0", "timeout=3");
        return directory;
    }

    @Test
    void ruleLeftOut_isReportedOnce_notAgainOnEachRefreshWhileItStays() {
        RegistryDirectory<DemoService> directory = twoProvidersWithAGoodRule();
        fixture.override("0.0.0.0", "timeout=3s");
        fixture.override("0.0.0.0", "priority=high&retries=9");
        long reported = directory.getProblemCount();
        assertThat(reported).isEqualTo(2);

        fixture.provider("10.20.30.142:9093", "");
        fixture.provider("10.20.30.143:9094", "");

        assertThat(Fixture.addresses(directory)).hasSize(4);
        assertThat(directory.getProblemCount()).as("the same rules, seen by two more refreshes").isEqualTo(reported);
    }

    @Test
    void ruleWithUnparseablePriority_isLeftOut_othersApply() {
        RegistryDirectory<DemoService> directory = twoProvidersWithAGoodRule();
        fixture.override("0.0.0.0", "priority=high&retries=9");

        assertThat(directory.getUrl().getParameter("timeout")).isEqualTo("3");
        assertThat(directory.getUrl().hasParameter("retries")).isFalse();
        assertThat(directory.getProblemCount()).isPositive();
    }

    @Test
    void ruleWithWeightThatIsNotAnInteger_isLeftOut_providersKeepTheirWeight() {
        RegistryDirectory<DemoService> directory = twoProvidersWithAGoodRule();
        fixture.override("0.0.0.0", "weight=heavy");
        fixture.override("0.0.0.0:9092", "weight=-5");

        assertThat(Fixture.providerValues(directory, "weight"))
                .isEqualTo(Map.of("10.20.30.140:9091", "100", "10.20.30.141:9092", "100"));
        assertThat(Fixture.providerValues(directory, "timeout"))
                .isEqualTo(Map.of("10.20.30.140:9091", "3", "10.20.30.141:9092", "3"));
        assertThat(directory.getProblemCount()).isPositive();
    }

    @Test
    void rulesThatCannotBeRead_areLeftOut() {
        RegistryDirectory<DemoService> directory = twoProvidersWithAGoodRule();
        fixture.registry.register(URL.valueOf("route://0.0.0.0/" + Fixture.SERVICE + "?category=configurators&retries=7"));
        fixture.override("0.0.0.0", "enabled=maybe&retries=7");
        fixture.override("0.0.0.0", "disabled=perhaps");
        fixture.override("0.0.0.0", "providerAddresses=10.0.0.1:1&retries=7");

        assertThat(directory.getUrl().hasParameter("retries")).isFalse();
        assertThat(directory.getUrl().getParameter("timeout")).isEqualTo("3");
        assertThat(Fixture.addresses(directory)).containsExactly("10.20.30.140:9091", "10.20.30.141:9092");
    }

    @Test
    void configuratorOf_namesKeyValueAndRule() {
        URL rule = URL.valueOf("override://0.0.0.0/" + Fixture.SERVICE + "?priority=high&timeout=1");
        assertThatThrownBy(() -> Configurator.of(rule))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("priority: high (expected: an integer")
                .hasMessageContaining(Fixture.SERVICE);
        assertThatThrownBy(() -> Configurator.of(URL.valueOf("route://0.0.0.0/x?timeout=1")))
                .hasMessageContaining("override rule protocol: route (expected: override or absent)");
    }

    @Test
    void providerWithUnknownProtocol_orFailedRefer_isLeftOut_othersServe() {
        fixture.provider("10.20.30.140:9091", "");
        fixture.registry.register(URL.valueOf("nosuch://10.20.30.142:9093/" + Fixture.SERVICE));
        fixture.provider("10.20.30.143:9094", "refuse=true");
        fixture.provider("10.20.30.144:9095", "disabled=perhaps");
        RegistryDirectory<DemoService> directory = fixture.directory();

        assertThat(Fixture.addresses(directory)).containsExactly("10.20.30.140:9091");
        assertThat(directory.getProblemCount()).isGreaterThanOrEqualTo(3);
    }

    @Test
    void routingRuleOfDubbosRouteProtocol_isRefused_andCounted() {
        ManualRegistry registry = new ManualRegistry();
        RegistryDirectory<DemoService> directory = RegistryDirectory
                .builder(DemoService.class, URL.valueOf(Fixture.CONSUMER), registry).director(fixture.director).build();
        registry.notifyAll(List.of(URL.valueOf("test://10.0.0.1:1/" + Fixture.SERVICE)));
        registry.notifyAll(List.of(Categories.emptyMarker(URL.valueOf(Fixture.CONSUMER), Categories.CONFIGURATORS)));
        registry.notifyAll(List.of(URL.valueOf("route://0.0.0.0/" + Fixture.SERVICE + "?category=routers")));

        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.1:1");
        assertThat(directory.getProblemCount()).isEqualTo(1);
    }
}
