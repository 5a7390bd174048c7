package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.RpcException;
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
import java.time.Duration;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Weft over the real stack: the weft protocol on loopback and an embedded ZooKeeper. */
class WeftZookeeperTest {

    private TestingServer zookeeper;
    private String registry;

    @BeforeEach
    void startZooKeeper() throws Exception {
        InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1,
                Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1");
        zookeeper = new TestingServer(spec, true);
        registry = "zookeeper://127.0.0.1:" + zookeeper.getPort() + "?session=5000&timeout=2000";
    }

    @AfterEach
    void stopZooKeeper() throws Exception {
        zookeeper.close();
    }

    @Test
    void providersRegisteredInZooKeeper_areCalledOverTheNetwork_andOneClosingLeavesTheOther() {
        try (Weft providerA = Weft.builder().registry(registry).application("a").build();
             Weft providerB = Weft.builder().registry(registry).application("b").build();
             Weft consumer = Weft.builder().registry(registry).application("shop").build()) {
            providerA.export(Greeter.class, new NamedGreeter("a"), "weft://127.0.0.1:0");
            providerB.export(Greeter.class, new NamedGreeter("b"), "weft://127.0.0.1:0");

            Greeter greeter = consumer.refer(Greeter.class, "loadbalance=roundrobin&timeout=2000");
            Set<String> answeredBy = eventually(() -> answers(greeter, 20), set -> set.size() == 2);
            assertThat(answeredBy).containsExactlyInAnyOrder("a:ada", "b:ada");

            providerA.close();
            Set<String> afterClose = eventually(() -> answers(greeter, 20), set -> set.equals(Set.of("b:ada")));
            assertThat(afterClose).containsExactly("b:ada");
        }
    }

    @Test
    void anOperatorsOverride_forcesAMockOnOneMethod_andDeletingItRestoresRealCalls() throws Exception {
        try (Weft provider = Weft.builder().registry(registry).build();
             Weft consumer = Weft.builder().registry(registry).build();
             CuratorFramework operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), 5000, 2000,
                     new RetryNTimes(3, 100))) {
            provider.export(Greeter.class, new NamedGreeter("p"), "weft://127.0.0.1:0");
            Greeter greeter = consumer.refer(Greeter.class, "timeout=2000");
            assertThat(greeter.greet("ada")).isEqualTo("p:ada");

            operator.start();
            String override = "override://0.0.0.0/" + Greeter.class.getName() + "?category=configurators&dynamic=false"
                    + "&greet.mock=force:return degraded";
            String node = "/weft/" + URLEncoder.encode(Greeter.class.getName(), StandardCharsets.UTF_8) + "/configurators/"
                    + URLEncoder.encode(override, StandardCharsets.UTF_8);
            operator.create().creatingParentsIfNeeded().forPath(node, new byte[0]);

            assertThat(eventually(() -> greeter.greet("ada"), "degraded"::equals)).isEqualTo("degraded");

            operator.delete().forPath(node);
            assertThat(eventually(() -> greeter.greet("ada"), "p:ada"::equals)).isEqualTo("p:ada");
        }
    }

    @Test
    void refer_withCheck_failsNamingTheServiceAndTheRegistry_whenNoProviderIsRegistered() {
        try (Weft consumer = Weft.builder().registry(registry).build()) {
            assertThatThrownBy(() -> consumer.refer(Greeter.class, "timeout=300&group=blue"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("refer " + Greeter.class.getName() + " group blue")
                    .hasMessageContaining("registry zookeeper://127.0.0.1:" + zookeeper.getPort());

            Greeter unchecked = consumer.refer(Greeter.class, "timeout=300&check=false&retries=0");
            assertThatThrownBy(() -> unchecked.greet("x")).isInstanceOf(RpcException.class);
        }
    }

    /**
     * Identical refers share one reference (one proxy, one consumers node); releasing it as often
     * as it was referred unsubscribes and deletes the node at once, long before close().
     */
    @Test
    void identicalRefers_shareOneReference_releasedWithTheLastRelease() throws Exception {
        try (Weft provider = Weft.builder().registry(registry).build();
             Weft consumer = Weft.builder().registry(registry).build();
             CuratorFramework operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), 5000, 2000,
                     new RetryNTimes(3, 100))) {
            operator.start();
            provider.export(Greeter.class, new NamedGreeter("p"), "weft://127.0.0.1:0");
            String consumers = "/weft/" + URLEncoder.encode(Greeter.class.getName(), StandardCharsets.UTF_8) + "/consumers";

            Greeter first = consumer.refer(Greeter.class, "timeout=3000");
            Greeter second = consumer.refer(Greeter.class, "timeout=3000");
            Greeter other = consumer.refer(Greeter.class, "timeout=3000&retries=0");

            assertThat(second).isSameAs(first);
            assertThat(other).isNotSameAs(first);
            assertThat(operator.getChildren().forPath(consumers)).hasSize(2);

            consumer.release(first);
            assertThat(second.greet("ada")).isEqualTo("p:ada");
            assertThat(operator.getChildren().forPath(consumers)).hasSize(2);

            consumer.release(second);
            assertThat(operator.getChildren().forPath(consumers)).hasSize(1);
            assertThatThrownBy(() -> first.greet("ada")).isInstanceOf(RuntimeException.class);
            assertThat(other.greet("ada")).isEqualTo("p:ada");
            assertThatThrownBy(() -> consumer.release(first))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageStartingWith("release: ");
        }
    }

    /**
     * close() unregisters every service before draining any, and drains them together: with a
     * call held in flight at the newest service, the older one is unregistered and stops
     * listening while that call still runs (one at a time, newest first, it would wait).
     */
    @Test
    void close_unregistersEveryServiceFirst_thenDrainsThemTogether() throws Exception {
        java.util.concurrent.CountDownLatch held = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch arrived = new java.util.concurrent.CountDownLatch(1);
        Greeter holding = name -> {
            arrived.countDown();
            try {
                held.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            return "held:" + name;
        };
        Weft provider = Weft.builder().registry(registry).build();
        try (Weft consumer = Weft.builder().build();
             CuratorFramework operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), 5000, 2000,
                     new RetryNTimes(3, 100))) {
            operator.start();
            int older = provider.export(Greeter.class, new NamedGreeter("older"), "weft://127.0.0.1:0?group=older")
                    .getInvoker().getUrl().getPort();
            int newest = provider.export(Greeter.class, holding, "weft://127.0.0.1:0?group=newest")
                    .getInvoker().getUrl().getPort();
            Greeter caller = consumer.refer(Greeter.class, "url=weft://127.0.0.1:" + newest + "&group=newest&timeout=20000");
            java.util.concurrent.CompletableFuture<String> inFlight =
                    java.util.concurrent.CompletableFuture.supplyAsync(() -> caller.greet("ada"));
            assertThat(arrived.await(10, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            String providers = "/weft/" + URLEncoder.encode(Greeter.class.getName(), StandardCharsets.UTF_8) + "/providers";
            assertThat(operator.getChildren().forPath(providers)).hasSize(2);

            Thread closing = new Thread(provider::close, "test-close");
            closing.start();
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(15);
            while ((!operator.getChildren().forPath(providers).isEmpty() || listening(older))
                    && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }

            assertThat(operator.getChildren().forPath(providers)).as("both unregistered, a call still in flight").isEmpty();
            assertThat(listening(older)).as("the older service drained while the newest still runs a call").isFalse();
            assertThat(inFlight).isNotDone();
            held.countDown();
            assertThat(inFlight.get(10, java.util.concurrent.TimeUnit.SECONDS)).isEqualTo("held:ada");
            closing.join(20_000);
            assertThat(closing.isAlive()).isFalse();
        } finally {
            held.countDown();
            provider.close();
        }
    }

    private static boolean listening(int port) {
        try (java.net.Socket socket = new java.net.Socket()) {
            socket.connect(new java.net.InetSocketAddress("127.0.0.1", port), 1000);
            return true;
        } catch (java.io.IOException e) {
            return false;
        }
    }

    /** docs/url-keys.md, key {@code url}: used instead of the registry, even when one is set. */
    @Test
    void urlKey_isUsedEvenWithARegistry_reachingAProviderTheRegistryDoesNotList() {
        try (Weft unregistered = Weft.builder().build();
             Weft consumer = Weft.builder().registry(registry).build()) {
            int port = unregistered.export(Greeter.class, new NamedGreeter("direct"), "weft://127.0.0.1:0")
                    .getInvoker().getUrl().getPort();

            Greeter greeter = consumer.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&timeout=2000");

            assertThat(greeter.greet("ada")).isEqualTo("direct:ada");
        }
    }

    /** docs/rpc-bootstrap.md: an export URL without a port binds a free port, as port 0 does, and registers it. */
    @Test
    void export_withoutAPort_bindsAFreePort_andRegistersTheBoundOne() {
        try (Weft provider = Weft.builder().registry(registry).build();
             Weft consumer = Weft.builder().registry(registry).build()) {
            int bound = provider.export(Greeter.class, new NamedGreeter("p"), "weft://127.0.0.1").getInvoker().getUrl().getPort();

            assertThat(bound).isPositive();
            assertThat(consumer.refer(Greeter.class, "timeout=3000").greet("ada")).isEqualTo("p:ada");
        }
    }

    /** docs/url-keys.md, key {@code check}: refer waits up to {@code timeout}, not less, before failing. */
    @Test
    void checkTrue_waitsTheConsumersTimeout_thenFails() {
        try (Weft consumer = Weft.builder().registry(registry).build()) {
            consumer.refer(Greeter.class, "check=false"); // the registry is connected: what follows waits only for a provider
            long started = System.nanoTime();
            assertThatThrownBy(() -> consumer.refer(Greeter.class, "timeout=700"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("no available provider within 700 ms");
            assertThat(System.nanoTime() - started).isGreaterThanOrEqualTo(700_000_000L);
        }
    }

    @Test
    void builder_rejectsAnUnknownRegistryScheme() {
        assertThatThrownBy(() -> Weft.builder().registry("zookeper://127.0.0.1:2181").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("zookeper://127.0.0.1:2181")
                .hasMessageContaining("zookeeper");
    }

    private static Set<String> answers(Greeter greeter, int calls) {
        Set<String> seen = new HashSet<>();
        for (int i = 0; i < calls; i++) {
            seen.add(greeter.greet("ada"));
        }
        return seen;
    }

    /** Polls {@code value} until {@code done} holds, for at most 10 s (two busy cores). */
    private static <V> V eventually(Supplier<V> value, java.util.function.Predicate<V> done) {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        V last = null;
        while (System.nanoTime() < deadline) {
            try {
                last = value.get();
                if (done.test(last)) {
                    return last;
                }
            } catch (RuntimeException transientFailure) {
                last = null;
            }
            sleep(Duration.ofMillis(50));
        }
        return last;
    }

    private static void sleep(Duration duration) {
        try {
            Thread.sleep(duration.toMillis());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
