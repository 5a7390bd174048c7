package dev.weft.rpc.it.zk;

import dev.weft.rpc.bootstrap.Weft;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 15's end-to-end test: two provider JVMs registered through {@link Weft} in an embedded
 * ZooKeeper, a consumer in this JVM through {@code Weft} with failover; one provider is killed with
 * kill -9 under load, and no call fails, neither while its node lingers nor after it expires.
 *
 * <p>The providers' sessions are longer than the other tests' (the server's maximum): a session
 * that expires for the surviving provider on a starved machine removes its node until it
 * re-registers, and a consumer then rightly has no provider to call. The failure message shows
 * the provider counts a second consumer saw, which tells that case apart from a failover defect.
 */
class ProcessFailoverTest {

    private static final Duration START = Duration.ofSeconds(60);
    private static final Duration SETTLE = Duration.ofSeconds(30);
    private static final int PROVIDER_SESSION_MS = EmbeddedZooKeeper.MAX_SESSION_MS;

    @Test
    void killNineOfOneProviderUnderLoad_consumerLosesNoCall() throws Exception {
        try (TestingServer zookeeper = EmbeddedZooKeeper.start()) {
            String registryUrl = EmbeddedZooKeeper.registryUrl(zookeeper);
            List<ProviderProcess> providers = new ArrayList<>();
            try (DirectoryProbe probe = DirectoryProbe.open(registryUrl)) {
                List<Integer> listed = providerCounts(probe);
                String providerRegistryUrl = EmbeddedZooKeeper.registryUrl(zookeeper, PROVIDER_SESSION_MS);
                providers.add(ProviderProcess.start(providerRegistryUrl, "p1"));
                providers.add(ProviderProcess.start(providerRegistryUrl, "p2"));
                for (ProviderProcess provider : providers) {
                    assertThat(provider.awaitReady(START).getHost()).isEqualTo("127.0.0.1");
                }
                Await.until(() -> probe.directory().getInvokers().size() == 2, SETTLE, "both providers registered");
                try (Weft consumer = Weft.builder().registry(registryUrl).application("shop").build()) {
                    GreetingService service = consumer.refer(GreetingService.class,
                            "cluster=failover&retries=2&timeout=3000&loadbalance=roundrobin");
                    try (CallLoad load = CallLoad.start(() -> service.sayHello("ada"), ProcessFailoverTest::provider,
                            4, 1_500, Duration.ofSeconds(60))) {
                        assertThat(load.awaitMore("p1", 200, SETTLE)).as("%s", load).isTrue();
                        assertThat(load.awaitMore("p2", 200, SETTLE)).as("%s", load).isTrue();

                        providers.get(0).kill();
                        assertThat(providers.get(0).isAlive()).isFalse();
                        assertThat(load.awaitMore("p2", 500, SETTLE)).as("%s", load).isTrue();
                        long p1AfterKill = load.count("p1");
                        Await.until(() -> probe.directory().getInvokers().size() == 1, SETTLE,
                                "the killed provider's session expired and its node went");
                        assertThat(load.awaitMore("p2", 500, SETTLE)).as("%s", load).isTrue();

                        assertThat(load.stop(SETTLE)).isTrue();
                        assertThat(load.failures()).as("%s; providers listed by a second consumer, in order: %s", load, listed)
                                .isZero();
                        assertThat(load.firstFailures()).isEmpty();
                        assertThat(load.count("p1")).isEqualTo(p1AfterKill);
                        assertThat(load.count("p1") + load.count("p2")).isEqualTo(load.calls());
                    }
                }
            } finally {
                for (ProviderProcess provider : providers) {
                    provider.close();
                }
            }
        }
    }

    /** The number of providers of every state {@code probe}'s directory is about to publish from now on. */
    private static List<Integer> providerCounts(DirectoryProbe probe) {
        List<Integer> counts = new CopyOnWriteArrayList<>();
        probe.directory().addListener(next -> counts.add(next.invokers().size()));
        return counts;
    }

    private static String provider(String answer) {
        if (answer.equals("p1:hello ada") || answer.equals("p2:hello ada")) {
            return answer.substring(0, 2);
        }
        throw new AssertionError("unexpected answer: " + answer);
    }
}
