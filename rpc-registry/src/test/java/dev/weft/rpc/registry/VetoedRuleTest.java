package dev.weft.rpc.registry;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.mock.MockClusterInvoker;
import dev.weft.rpc.mock.MockConfigurationException;
import dev.weft.rpc.proxy.ProxyFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A rule whose value the cluster strategy or the mock wrapper rejects when it checks a new state
 * (a veto): the last good settings keep serving, and providers that join or leave meanwhile are
 * still followed; deleting the rule changes nothing else.
 */
class VetoedRuleTest {

    private final Fixture fixture = new Fixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    private Invoker<DemoService> join(RegistryDirectory<DemoService> directory) {
        return fixture.director.getExtensionLoader(Cluster.class).getAdaptiveExtension().join(directory);
    }

    private DemoService proxy(Invoker<DemoService> invoker) {
        return fixture.director.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension().getProxy(invoker);
    }

    @Test
    void ruleTheClusterVetoes_doesNotFreezeTheProviders() {
        URL leaving = fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        DemoService service = proxy(join(directory));

        URL bad = fixture.override("0.0.0.0", "loadbalance=nosuch&retries=7");
        assertThat(directory.getUrl().hasParameter("loadbalance")).isFalse();
        long problems = directory.getProblemCount();
        assertThat(problems).isPositive();

        fixture.provider("10.0.0.2:2", "");
        fixture.registry.unregister(leaving);
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.2:2");
        assertThat(fixture.protocol.live()).as("invokers of providers listed").isEqualTo(1);
        assertThat(callers(service)).containsExactly("10.0.0.2:2");

        fixture.override("0.0.0.0", "timeout=300");
        assertThat(directory.getUrl().getParameter("timeout")).as("a good rule beside it").isEqualTo("300");

        fixture.registry.unregister(bad);
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.2:2");
        assertThat(directory.getUrl().getParameter("timeout")).isEqualTo("300");
    }

    @Test
    void ruleTheClusterVetoes_isReportedOnce_whileItStays() {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        join(directory);
        fixture.override("0.0.0.0", "loadbalance=nosuch");
        long reported = directory.getProblemCount();
        assertThat(reported).isEqualTo(1);

        fixture.provider("10.0.0.2:2", "");
        fixture.provider("10.0.0.3:3", "");

        assertThat(Fixture.addresses(directory)).hasSize(3);
        assertThat(directory.getProblemCount()).isEqualTo(reported);
    }

    @Test
    void mockRuleTheMockWrapperVetoes_doesNotFreezeTheProviders() {
        URL leaving = fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        DemoService service = proxy(join(directory));

        fixture.override("0.0.0.0", "sayHello.mock=force:dev.weft.NoSuchMock");
        assertThat(callers(service)).containsExactly("10.0.0.1:1");

        fixture.provider("10.0.0.2:2", "");
        fixture.registry.unregister(leaving);
        assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.2:2");
        assertThat(callers(service)).containsExactly("10.0.0.2:2");
    }

    @Test
    void consumerStartingWhileARefusedRuleIsInTheRegistry_joinsAndServes_withoutTheRule() {
        fixture.provider("10.0.0.1:1", "");
        fixture.override("0.0.0.0", "loadbalance=nosuch");
        fixture.override("0.0.0.0", "sayHello.retries=many");
        fixture.override("0.0.0.0", "timeout=300");
        RegistryDirectory<DemoService> directory = fixture.directory();

        DemoService service = proxy(join(directory));
        assertThat(callers(service)).containsExactly("10.0.0.1:1");
        assertThat(directory.getUrl().getParameter("timeout")).isEqualTo("300");
        assertThat(directory.getUrl().hasParameter("loadbalance")).isFalse();
        assertThat(directory.getUrl().hasParameter("sayHello.retries")).isFalse();
        assertThat(directory.getProblemCount()).isPositive();
    }

    @Test
    void consumerStartingWhileTheMockWrapperRefusesARule_joinsAndServes_withoutTheRule() {
        fixture.provider("10.0.0.1:1", "");
        fixture.override("0.0.0.0", "sayHello.mock=force:return {not json");
        fixture.override("0.0.0.0", "sayBye.mock=force:dev.weft.NoSuchMock");
        fixture.override("0.0.0.0", "timeout=300");
        RegistryDirectory<DemoService> directory = fixture.directory();
        assertThat(directory.getUrl().getParameter("sayHello.mock")).as("the rule applies before the consumer joins")
                .isEqualTo("force:return {not json");

        Invoker<DemoService> invoker = join(directory);

        DemoService service = proxy(invoker);
        assertThat(callers(service)).containsExactly("10.0.0.1:1");
        assertThat(service.sayBye("x")).isEqualTo("10.0.0.1:1");
        assertThat(directory.getUrl().hasParameter("sayHello.mock")).isFalse();
        assertThat(directory.getUrl().hasParameter("sayBye.mock")).isFalse();
        assertThat(directory.getUrl().getParameter("timeout")).as("a good rule beside them").isEqualTo("300");
        assertThat(directory.getProblemCount()).isGreaterThanOrEqualTo(2);
        assertThat(invoker).isInstanceOf(MockClusterInvoker.class);
        assertThat(((MockClusterInvoker<DemoService>) invoker).getRejectedUpdates()).isGreaterThanOrEqualTo(2);

        fixture.override("0.0.0.0", "sayHello.mock=force:return fixed");
        assertThat(service.sayHello("x")).as("a good mock rule added later").isEqualTo("fixed");
    }

    @Test
    void badMockInTheConsumersOwnUrl_failsTheJoin_evenWithRulesInTheRegistry() {
        fixture.provider("10.0.0.1:1", "");
        fixture.override("0.0.0.0", "timeout=300");
        fixture.override("0.0.0.0", "sayBye.mock=force:dev.weft.NoSuchMock");
        RegistryDirectory<DemoService> directory = fixture.directory(Fixture.CONSUMER + "&sayHello.mock=force:return {not json");

        assertThatThrownBy(() -> join(directory)).isInstanceOf(MockConfigurationException.class)
                .hasMessageContaining("{not json");
    }

    @Test
    void badMockInTheConsumersOwnUrl_failsTheJoin_withoutRules() {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory(Fixture.CONSUMER + "&sayHello.mock=force:return {not json");

        assertThatThrownBy(() -> join(directory)).isInstanceOf(MockConfigurationException.class)
                .hasMessageContaining("{not json");
    }

    private static Set<String> callers(DemoService service) {
        Set<String> answers = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            answers.add(service.sayHello("x"));
        }
        return answers;
    }
}
