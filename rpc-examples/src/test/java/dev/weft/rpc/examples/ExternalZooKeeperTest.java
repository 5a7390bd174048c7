package dev.weft.rpc.examples;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.recipes.cache.CuratorCache;
import org.apache.curator.framework.recipes.cache.CuratorCacheListener;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --zookeeper host:port}: the playground runs against a ZooKeeper it did not start (a
 * server this test owns, standing for an external ensemble), applies the governance events there
 * and leaves that ZooKeeper as it found it.
 */
class ExternalZooKeeperTest {

    private TestingServer external;
    private CuratorFramework observer;
    private CuratorCache cache;
    private final Set<String> created = ConcurrentHashMap.newKeySet();

    @BeforeEach
    void startExternalZooKeeper() throws Exception {
        external = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1,
                Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true);
        observer = CuratorFrameworkFactory.newClient(external.getConnectString(), new RetryOneTime(100));
        observer.start();
        assertThat(observer.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
        observer.create().forPath("/weft");
        observer.create().forPath("/weft/com.example.Other", "someone else's".getBytes(StandardCharsets.UTF_8));
        cache = CuratorCache.build(observer, "/weft");
        cache.listenable().addListener(CuratorCacheListener.builder()
                .forCreates(node -> created.add(node.getPath())).build());
        cache.start();
    }

    @AfterEach
    void stopExternalZooKeeper() throws Exception {
        cache.close();
        observer.close();
        external.close();
    }

    @Test
    void zookeeperOption_runsTheEventsOnThatServer_startsNoEmbeddedOne_andDeletesWhatItCreated() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String address = "127.0.0.1:" + external.getPort();
        long serversBefore = zooKeeperServerThreads();
        AtomicLong mostServers = new AtomicLong();
        ScheduledExecutorService sampler = Executors.newSingleThreadScheduledExecutor();
        sampler.scheduleWithFixedDelay(() -> mostServers.accumulateAndGet(zooKeeperServerThreads(), Math::max),
                0, 20, TimeUnit.MILLISECONDS);
        int code;
        try {
            code = Main.run(new String[] {"--zookeeper", address, "--no-tour", "--live", "6s", "--rate", "60",
                    "--threads", "2"}, new PrintStream(out, true, StandardCharsets.UTF_8),
                    new PrintStream(err, true, StandardCharsets.UTF_8), false);
        } finally {
            sampler.shutdownNow();
            assertThat(sampler.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
        }

        String output = out.toString(StandardCharsets.UTF_8);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEmpty();
        assertThat(code).isZero();
        assertThat(output).contains("live cluster timeline (ZooKeeper " + address + ",",
                "override: greet.mock=force:return degraded", "provider b: override: weight=600",
                "provider c: override: disabled=true", "provider d: killed (no graceful shutdown)",
                "provider e: shut down gracefully", "provider e: override: tag=canary", "provider e: tag rule deleted",
                "provider c: brownout: 20x slower", "provider c: brownout: failing (no answer in time)")
                .doesNotContain("ZooKeeper restarted", "embedded ZooKeeper", "FAILED:");

        // the registrations and the operator's rules went to this server
        String service = "/weft/" + GreetingService.class.getName();
        assertThat(created.stream().filter(p -> p.startsWith(service + "/providers/"))).hasSize(5);
        assertThat(created.stream().filter(p -> p.startsWith(service + "/consumers/"))).hasSize(1);
        // the admin's commands wrote the rules: the mock, the canary's tag, the weight, the disable
        List<String> overrides = created.stream().filter(p -> p.startsWith(service + "/configurators/override"))
                .map(p -> URLDecoder.decode(p, StandardCharsets.UTF_8)).toList();
        assertThat(overrides).hasSize(4);
        assertThat(overrides).anyMatch(p -> p.contains("greet.mock=force"))
                .anyMatch(p -> p.contains("tag=canary")).anyMatch(p -> p.contains("weight=600"))
                .anyMatch(p -> p.contains("disabled=true"));
        // no ZooKeeper server of its own: while it ran, the only server in this JVM was the test's
        assertThat(serversBefore).isEqualTo(1);
        assertThat(mostServers.get()).isEqualTo(1);

        // what it created is gone (the killed provider's registration too); what was there stays
        assertThat(observer.checkExists().forPath(service)).isNull();
        assertThat(observer.getChildren().forPath("/weft")).isEqualTo(List.of("com.example.Other"));
    }

    /** Threads of ZooKeeper's session tracker: one per running server in this JVM. */
    private static long zooKeeperServerThreads() {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith("SessionTracker")).count();
    }
}
