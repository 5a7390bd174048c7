package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.RegistryHealth;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The ZooKeeper registry reports its connection through the registry-neutral {@link RegistryHealth},
 * which is what {@code RegistryDirectory.getRegistryHealth()} (and so the playground and metrics) reads.
 */
class RegistryHealthTest {

    @Test
    void registryHealth_followsTheConnectionAndTheLastRead_untilClosed() throws Exception {
        try (TestingServer server = EmbeddedZooKeeper.server()) {
            ZookeeperRegistry registry = new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(server.getConnectString(), ""));
            try {
                RegistryHealth health = registry;
                Await.until("connected", () -> health.getState() == RegistryHealth.State.CONNECTED, health::getState);
                RecordingListener listener = new RecordingListener();
                registry.subscribe(URL.valueOf("consumer://127.0.0.1/com.example.DemoService?application=app"), listener);
                Await.until("first list", () -> listener.count() > 0, listener::toString);
                assertThat(health.getTimeSinceLastRead()).isPresent();

                server.stop();
                Await.until("not connected", () -> health.getState() != RegistryHealth.State.CONNECTED,
                        health::getState);
                assertThat(health.getState().name()).isEqualTo(registry.health().state().name());
                assertThat(health.getTimeSinceLastRead()).isPresent();
            } finally {
                registry.close();
            }
            assertThat(registry.getState()).isEqualTo(RegistryHealth.State.CLOSED);
        }
    }

    @Test
    void everyZookeeperState_hasTheSameNamedRegistryState() {
        for (ZookeeperHealth.State state : ZookeeperHealth.State.values()) {
            assertThat(RegistryHealth.State.valueOf(state.name()).name()).isEqualTo(state.name());
        }
    }
}
