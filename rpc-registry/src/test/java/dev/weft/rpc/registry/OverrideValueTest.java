package dev.weft.rpc.registry;

import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.proxy.ProxyFactory;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rule values that no target had yet: a key the directory hands on unchecked ({@code timeout} to
 * the protocol, {@code weight} to the balancers) must be usable, else the rule is left out and the
 * providers keep what they had.
 */
class OverrideValueTest {

    private final Fixture fixture = new Fixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    @Test
    void timeoutRuleThatIsNotPositiveMilliseconds_isLeftOut_onAConsumerWithoutTimeout_callsKeepTheirDeadline() {
        fixture.provider("10.0.0.1:1", "");
        RegistryDirectory<DemoService> directory = fixture.directory();
        fixture.override("0.0.0.0", "timeout=3s");
        fixture.override("0.0.0.0:1", "timeout=0");
        fixture.override("10.20.30.1", "sayHello.timeout=-5");

        sayHelloOnTheOnlyProvider(directory);
        assertThat(effectiveTimeout()).as("timeout handed to the protocol").isNull();
        assertThat(directory.getInvokers().get(0).getUrl().hasParameter("timeout")).isFalse();
        assertThat(directory.getInvokers().get(0).getUrl().hasParameter("sayHello.timeout")).isFalse();
        assertThat(directory.getProblemCount()).as("each refresh reports each rule it leaves out").isEqualTo(1 + 2 + 3);

        URL good = fixture.override("0.0.0.0", "sayHello.timeout=250");
        sayHelloOnTheOnlyProvider(directory);
        assertThat(effectiveTimeout()).isEqualTo("250");
        fixture.registry.unregister(good);
        sayHelloOnTheOnlyProvider(directory);
        assertThat(effectiveTimeout()).isNull();
    }

    /** The timeout that applies to the provider's last call: the view URL in its call options, else the provider's own. */
    private String effectiveTimeout() {
        Invocation last = fixture.protocol.invokers.get(0).lastInvocation();
        return CallOptions.urlOf(fixture.protocol.invokers.get(0), last).getMethodParameter(last.getMethodName(), "timeout");
    }

    @Test
    void weightRuleThatIsNotANonNegativeInteger_onProvidersWithoutWeight_leavesEveryProviderServing() {
        fixture.provider("10.0.0.1:1", "");
        fixture.provider("10.0.0.2:2", "");
        RegistryDirectory<DemoService> directory = fixture.directory(Fixture.CONSUMER + "&loadbalance=roundrobin");
        DemoService service = proxy(directory);
        fixture.override("0.0.0.0", "weight=heavy");
        fixture.override("0.0.0.0:2", "weight=-5");

        assertThat(callers(service)).containsExactlyInAnyOrder("10.0.0.1:1", "10.0.0.2:2");
        assertThat(directory.getProblemCount()).isPositive();
        fixture.provider("10.0.0.3:3", "");
        assertThat(callers(service)).containsExactlyInAnyOrder("10.0.0.1:1", "10.0.0.2:2", "10.0.0.3:3");
    }

    @Test
    void warmupOrTimestampRuleThatIsNotAnInteger_onProvidersThatRegisteredAStartTime_leavesEveryProviderServing() {
        fixture.provider("10.0.0.1:1", "timestamp=1000");
        fixture.provider("10.0.0.2:2", "timestamp=1000");
        RegistryDirectory<DemoService> directory = fixture.directory(Fixture.CONSUMER + "&loadbalance=roundrobin");
        DemoService service = proxy(directory);
        fixture.override("0.0.0.0", "warmup=10m");
        fixture.override("0.0.0.0:2", "timestamp=yesterday");

        assertThat(callers(service)).containsExactlyInAnyOrder("10.0.0.1:1", "10.0.0.2:2");
        assertThat(Fixture.providerValues(directory, "warmup"))
                .isEqualTo(Map.of("10.0.0.1:1", "null", "10.0.0.2:2", "null"));
        assertThat(directory.getProblemCount()).isPositive();
    }

    private DemoService proxy(RegistryDirectory<DemoService> directory) {
        Invoker<DemoService> invoker = fixture.director.getExtensionLoader(Cluster.class).getAdaptiveExtension().join(directory);
        return fixture.director.getExtensionLoader(ProxyFactory.class).getAdaptiveExtension().getProxy(invoker);
    }

    private static Set<String> callers(DemoService service) {
        Set<String> answers = new HashSet<>();
        for (int i = 0; i < 20; i++) {
            answers.add(service.sayHello("x"));
        }
        return answers;
    }

    private static void sayHelloOnTheOnlyProvider(RegistryDirectory<DemoService> directory) {
        List<Invoker<DemoService>> invokers = directory.getInvokers();
        assertThat(invokers).hasSize(1);
        RpcInvocation call = new RpcInvocation("sayHello", new Class<?>[] {String.class}, new Object[] {"ada"},
                String.class, String.class);
        assertThat(invokers.get(0).invoke(call).getValue()).isEqualTo("10.0.0.1:1");
    }
}
