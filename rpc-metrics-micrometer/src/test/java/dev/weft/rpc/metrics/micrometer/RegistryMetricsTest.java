package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.bootstrap.Weft;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.function.DoubleSupplier;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The registry gauges of a consumer whose providers and override rules come from an embedded
 * ZooKeeper, with providers over {@code weft} on loopback.
 */
class RegistryMetricsTest {

    private TestingServer zookeeper;
    private String registry;
    private CuratorFramework operator;

    @BeforeEach
    void startZooKeeper() throws Exception {
        InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1,
                Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1");
        zookeeper = new TestingServer(spec, true);
        registry = "zookeeper://127.0.0.1:" + zookeeper.getPort() + "?session=5000&timeout=2000";
        operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), 5000, 2000, new RetryNTimes(3, 100));
        operator.start();
    }

    @AfterEach
    void stopZooKeeper() throws Exception {
        operator.close();
        zookeeper.close();
    }

    @Test
    void providersRulesAndRejectedRules_followTheRegistry() throws Exception {
        try (Weft providerA = Weft.builder().registry(registry).application("a").build();
             Weft providerB = Weft.builder().registry(registry).application("b").build();
             Weft consumer = Weft.builder().registry(registry).application("shop").build()) {
            SimpleMeterRegistry meters = new SimpleMeterRegistry();
            new WeftMetrics(consumer.director()).bindTo(meters);
            providerA.export(Shop.class, new ShopImpl("a"), "weft://127.0.0.1:0");
            Shop shop = consumer.refer(Shop.class, "timeout=2000");
            assertThat(shop.greet("ada")).isEqualTo("a:ada");

            assertThat(eventually(() -> gauge(meters, Meters.REGISTRY_PROVIDERS), 1)).isEqualTo(1);
            assertThat(gauge(meters, Meters.REGISTRY_RULES)).isZero();
            assertThat(rejected(meters)).isZero();

            providerB.export(Shop.class, new ShopImpl("b"), "weft://127.0.0.1:0");
            assertThat(eventually(() -> gauge(meters, Meters.REGISTRY_PROVIDERS), 2)).isEqualTo(2);

            writeRule("timeout=1500");
            assertThat(eventually(() -> gauge(meters, Meters.REGISTRY_RULES), 1)).isEqualTo(1);

            writeRule("timeout=3s");
            assertThat(eventually(() -> rejected(meters), 1)).isEqualTo(1);
            assertThat(gauge(meters, Meters.REGISTRY_RULES)).as("the bad rule is left out").isEqualTo(1);

            providerA.close();
            assertThat(eventually(() -> gauge(meters, Meters.REGISTRY_PROVIDERS), 1)).isEqualTo(1);
            assertThat(rejected(meters)).as("counted once, not on every refresh").isEqualTo(1);
        }
    }

    private void writeRule(String parameters) throws Exception {
        String override = "override://0.0.0.0/" + Shop.class.getName() + "?category=configurators&dynamic=false&" + parameters;
        String node = "/weft/" + URLEncoder.encode(Shop.class.getName(), StandardCharsets.UTF_8) + "/configurators/"
                + URLEncoder.encode(override, StandardCharsets.UTF_8);
        operator.create().creatingParentsIfNeeded().forPath(node, new byte[0]);
    }

    private static double gauge(MeterRegistry meters, String name) {
        return meters.get(name).tags(Meters.SYSTEM, "weft", Meters.SERVICE, Shop.class.getName()).gauge().value();
    }

    private static double rejected(MeterRegistry meters) {
        return meters.get(Meters.REGISTRY_RULES_REJECTED).tag(Meters.SERVICE, Shop.class.getName()).functionCounter().count();
    }

    /** Polls {@code value} until it equals {@code expected}, for at most 10 s (two busy cores); returns the last value. */
    private static double eventually(DoubleSupplier value, double expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        double last = value.getAsDouble();
        while (last != expected && System.nanoTime() < deadline) {
            Thread.sleep(20);
            last = value.getAsDouble();
        }
        return last;
    }
}
