package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Many add/remove cycles against the memory registry: every invoker referred is destroyed, nothing accumulates. */
class ChurnTest {

    private static final int CYCLES = 10_000;

    @Test
    void tenThousandAddRemoveCycles_destroyEveryInvokerReferred() {
        try (Fixture fixture = new Fixture()) {
            fixture.provider("10.0.0.1:1", "");
            RegistryDirectory<DemoService> directory = fixture.directory();
            for (int i = 0; i < CYCLES; i++) {
                String address = "10.1." + (i / 250) + "." + (i % 250 + 1) + ":" + (1000 + i % 7);
                URL provider = fixture.provider(address, "weight=" + (i % 100));
                URL rule = fixture.override(address, "weight=" + (i % 100 + 1) + "&timeout=" + i);
                assertThat(directory.getInvokers()).hasSize(2);
                fixture.registry.unregister(provider);
                fixture.registry.unregister(rule);
                assertThat(fixture.protocol.live()).isEqualTo(1);
            }
            assertThat(Fixture.addresses(directory)).containsExactly("10.0.0.1:1");
            assertThat(fixture.protocol.referred.get()).isEqualTo(CYCLES + 1);
            assertThat(fixture.registry.lookup(URL.valueOf(Fixture.CONSUMER + "&category=providers,configurators")))
                    .hasSize(1);

            directory.destroy();
            assertThat(fixture.protocol.destroyed()).isEqualTo(fixture.protocol.referred.get());
        }
    }
}
