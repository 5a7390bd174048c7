package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Rule values that no target had yet: a per-call key the directory hands to the protocol
 * ({@code timeout}) must be usable, else the rule is left out and the calls keep their deadline.
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
        assertThat(fixture.protocol.invokers.get(0).lastInvocation().getAttachment("timeout"))
                .as("timeout handed to the protocol").isNull();
        assertThat(directory.getInvokers().get(0).getUrl().hasParameter("timeout")).isFalse();
        assertThat(directory.getInvokers().get(0).getUrl().hasParameter("sayHello.timeout")).isFalse();
        assertThat(directory.getProblemCount()).as("each refresh reports each rule it leaves out").isEqualTo(1 + 2 + 3);

        URL good = fixture.override("0.0.0.0", "sayHello.timeout=250");
        sayHelloOnTheOnlyProvider(directory);
        assertThat(fixture.protocol.invokers.get(0).lastInvocation().getAttachment("timeout")).isEqualTo("250");
        fixture.registry.unregister(good);
        sayHelloOnTheOnlyProvider(directory);
        assertThat(fixture.protocol.invokers.get(0).lastInvocation().getAttachment("timeout")).isNull();
    }

    private static void sayHelloOnTheOnlyProvider(RegistryDirectory<DemoService> directory) {
        List<Invoker<DemoService>> invokers = directory.getInvokers();
        assertThat(invokers).hasSize(1);
        RpcInvocation call = new RpcInvocation("sayHello", new Class<?>[] {String.class}, new Object[] {"ada"},
                String.class, String.class);
        assertThat(invokers.get(0).invoke(call).getValue()).isEqualTo("10.0.0.1:1");
    }
}
