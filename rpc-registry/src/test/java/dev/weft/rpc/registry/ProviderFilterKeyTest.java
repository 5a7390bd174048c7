package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcInvocation;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider's {@code filter} key configures the provider's own chain: it never reaches the chain
 * a consumer builds for that provider, whatever it names.
 */
class ProviderFilterKeyTest {

    private final Fixture fixture = new Fixture();

    @AfterEach
    void close() {
        fixture.close();
    }

    private static RpcInvocation sayHello() {
        return new RpcInvocation("sayHello", new Class<?>[] {String.class}, new Object[] {"ada"}, String.class, String.class);
    }

    private static Invoker<DemoService> only(RegistryDirectory<DemoService> directory) {
        List<Invoker<DemoService>> invokers = directory.getInvokers();
        assertThat(invokers).hasSize(1);
        return invokers.get(0);
    }

    @Test
    void providerRemovingTheDefaultFilters_leavesTheConsumersContextFilterOn() {
        fixture.provider("10.0.0.1:1", "filter=-default");
        RegistryDirectory<DemoService> directory = fixture.directory();

        assertThat(only(directory).invoke(sayHello()).getValue()).isEqualTo("10.0.0.1:1");

        assertThat(fixture.protocol.invokers.get(0).lastInvocation().getAttachments())
                .as("the consumer's context filter still attaches the calling application")
                .containsEntry("application", "shop");
    }

    @Test
    void providerNamingFiltersTheConsumerLacks_isReferredAndCalledAsUsual() {
        fixture.provider("10.0.0.1:1", "filter=tenant,-audit");
        RegistryDirectory<DemoService> directory = fixture.directory();

        assertThat(only(directory).invoke(sayHello()).getValue()).isEqualTo("10.0.0.1:1");
        assertThat(directory.getProblemCount()).isZero();
    }
}
