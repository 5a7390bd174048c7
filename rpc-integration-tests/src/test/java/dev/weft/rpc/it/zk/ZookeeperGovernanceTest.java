package dev.weft.rpc.it.zk;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.registry.RegistryHealth;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Issue 14's governance scenarios on the real stack: the weft protocol on loopback sockets, an
 * embedded ZooKeeper, two providers and a consumer in this JVM, each its own {@link Weft} (the
 * consumer calls through a {@link RegistryDirectory}). Override rules are written as an operator
 * does, with a plain ZooKeeper client; a {@link DirectoryProbe} shows when a change has reached
 * consumers.
 */
class ZookeeperGovernanceTest {

    private static final String SERVICE = GreetingService.class.getName();
    private static final String CONFIGURATORS = "/weft/" + SERVICE + "/configurators";
    private static final String CONSUMER_PARAMETERS = "cluster=failover&retries=2&timeout=2000";
    private static final Duration SETTLE = Duration.ofSeconds(20);
    private static final Duration LOAD_LIMIT = Duration.ofSeconds(60);

    private TestingServer zookeeper;
    private CuratorFramework operator;
    private final List<Weft> providers = new ArrayList<>();
    private final List<URL> providerUrls = new ArrayList<>();
    private DirectoryProbe probe;
    private RegistryDirectory<GreetingService> directory;
    private Weft consumer;
    private GreetingService service;

    @BeforeEach
    void start() throws Exception {
        zookeeper = EmbeddedZooKeeper.start();
        String registryUrl = EmbeddedZooKeeper.registryUrl(zookeeper);
        for (String id : List.of("p1", "p2")) {
            Weft provider = Weft.builder().registry(registryUrl).application("provider-" + id).build();
            providers.add(provider);
            providerUrls.add(provider.export(GreetingService.class, new NamedGreeter(id), "weft://127.0.0.1:0")
                    .getInvoker().getUrl());
        }
        probe = DirectoryProbe.open(registryUrl);
        directory = probe.directory();
        Await.until(() -> directory.getInvokers().size() == 2, SETTLE, "both providers in " + directory);
        consumer = Weft.builder().registry(registryUrl).application("shop").build();
        service = consumer.refer(GreetingService.class, CONSUMER_PARAMETERS);
        operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), 5_000, 2_000,
                new RetryNTimes(3, 100));
        operator.start();
        operator.blockUntilConnected();
    }

    @AfterEach
    void stop() throws Exception {
        try {
            if (operator != null) {
                operator.close();
            }
            if (consumer != null) {
                consumer.close();
            }
            if (probe != null) {
                probe.close();
            }
            providers.forEach(Weft::close);
        } finally {
            zookeeper.close();
        }
    }

    @Test
    void seedZkCliCommand_forcesTheMockOnOneMethodUnderLoad_andDeletingTheNodeRestoresRealCalls() throws Exception {
        // The seed's command, with this test's interface: the node name is the URL-encoded rule, '+' a space.
        String node = CONFIGURATORS + "/override%3A%2F%2F0.0.0.0%2F" + SERVICE
                + "%3Fcategory%3Dconfigurators%26dynamic%3Dfalse%26sayHello.mock%3Dforce%3Areturn+degraded";
        assertThat(node).isEqualTo(CONFIGURATORS + "/" + URLEncoder.encode("override://0.0.0.0/" + SERVICE
                + "?category=configurators&dynamic=false&sayHello.mock=force:return degraded", StandardCharsets.UTF_8));

        try (CallLoad hello = CallLoad.start(() -> service.sayHello("ada"), ZookeeperGovernanceTest::helloKind, 2,
                400, LOAD_LIMIT);
             CallLoad bye = CallLoad.start(() -> service.sayBye("ada"), ZookeeperGovernanceTest::byeKind, 2,
                     400, LOAD_LIMIT)) {
            assertThat(hello.awaitMore("real", 100, SETTLE)).as("%s", hello).isTrue();

            operator.create().forPath(node, new byte[0]);
            assertThat(hello.awaitMore("degraded", 200, SETTLE)).as("%s", hello).isTrue();
            long byeDuringMock = bye.count("real");
            assertThat(bye.awaitMore("real", 100, SETTLE)).as("the other method stays real: %s", bye).isTrue();
            assertThat(bye.count("real")).isGreaterThan(byeDuringMock);

            operator.delete().forPath(node);
            assertThat(hello.awaitMore("real", 50, SETTLE)).as("%s", hello).isTrue();
            long degradedAfterDelete = hello.count("degraded");
            assertThat(hello.awaitMore("real", 300, SETTLE)).as("%s", hello).isTrue();
            assertThat(hello.count("degraded")).as("no mock once real calls are back").isEqualTo(degradedAfterDelete);

            assertThat(hello.stop(SETTLE)).isTrue();
            assertThat(bye.stop(SETTLE)).isTrue();
            assertThat(hello.failures()).as("%s", hello).isZero();
            assertThat(bye.failures()).as("%s", bye).isZero();
            assertThat(bye.count("degraded")).isZero();
        }
        assertThat(directory.getUrl()).isEqualTo(directory.getConsumerUrl());
    }

    @Test
    void twentyOverrideFlips_ofWeightTimeoutAndLoadbalance_underLoad_failNoCall() throws Exception {
        URL first = providerUrls.get(0);
        List<Flip> flips = List.of(
                new Flip("override://" + first.getAddress() + "/" + SERVICE + "?category=configurators&dynamic=false&weight=300",
                        invokers -> invokers.stream().anyMatch(i -> "300".equals(i.getUrl().getParameter("weight")))),
                new Flip("override://0.0.0.0/" + SERVICE + "?category=configurators&dynamic=false&timeout=1500",
                        invokers -> "1500".equals(directory.getUrl().getParameter("timeout"))),
                new Flip("override://0.0.0.0/" + SERVICE + "?category=configurators&dynamic=false&loadbalance=roundrobin",
                        invokers -> "roundrobin".equals(directory.getUrl().getParameter("loadbalance"))),
                new Flip("override://0.0.0.0/" + SERVICE + "?category=configurators&dynamic=false&loadbalance=leastactive",
                        invokers -> "leastactive".equals(directory.getUrl().getParameter("loadbalance"))));
        URL original = directory.getUrl();

        try (CallLoad load = CallLoad.start(() -> service.sayHello("ada"), ZookeeperGovernanceTest::helloKind, 4,
                500, LOAD_LIMIT)) {
            assertThat(load.awaitMore("real", 100, SETTLE)).as("%s", load).isTrue();
            for (int i = 0; i < 20; i++) {
                Flip flip = flips.get(i % flips.size());
                String node = CONFIGURATORS + "/" + URLEncoder.encode(flip.rule, StandardCharsets.UTF_8);
                operator.create().forPath(node, new byte[0]);
                Await.until(() -> flip.inEffect.test(directory.getInvokers()), SETTLE, "in effect: " + flip.rule);
                operator.delete().forPath(node);
                Await.until(() -> !flip.inEffect.test(directory.getInvokers()), SETTLE, "removed: " + flip.rule);
            }
            assertThat(load.awaitMore("real", 100, SETTLE)).as("%s", load).isTrue();
            assertThat(load.stop(SETTLE)).isTrue();
            assertThat(load.failures()).as("%s", load).isZero();
            assertThat(load.calls()).isPositive();
        }
        assertThat(directory.getUrl()).isEqualTo(original);
        assertThat(directory.getInvokers()).extracting(i -> i.getUrl().getParameter("weight")).containsOnlyNulls();
    }

    @Test
    void zookeeperDownForThreeSessionTimeouts_consumerKeepsCallingBothProviders_noFailure() throws Exception {
        try (CallLoad load = CallLoad.start(() -> service.sayHello("ada"), ZookeeperGovernanceTest::providerKind, 4,
                400, LOAD_LIMIT)) {
            assertThat(load.awaitMore("p1", 50, SETTLE)).as("%s", load).isTrue();
            assertThat(load.awaitMore("p2", 50, SETTLE)).as("%s", load).isTrue();
            int port = zookeeper.getPort();
            zookeeper.stop();
            Await.until(() -> directory.getRegistryHealth().map(RegistryHealth::getState)
                    .filter(state -> state != RegistryHealth.State.CONNECTED).isPresent(), SETTLE,
                    "the registry clients noticed the outage");
            long p1Before = load.count("p1");
            long p2Before = load.count("p2");
            Thread.sleep(3L * EmbeddedZooKeeper.SESSION_MS);
            long p1DuringOutage = load.count("p1") - p1Before;
            long p2DuringOutage = load.count("p2") - p2Before;
            long failuresDuringOutage = load.failures();
            assertThat(directory.getInvokers()).hasSize(2);

            zookeeper.restart();
            assertThat(zookeeper.getPort()).isEqualTo(port);
            Await.until(() -> directory.getRegistryHealth().map(RegistryHealth::getState)
                    .filter(state -> state == RegistryHealth.State.CONNECTED).isPresent(), SETTLE,
                    "the registry clients reconnected");
            assertThat(load.awaitMore("p1", 100, SETTLE)).as("%s", load).isTrue();
            assertThat(load.awaitMore("p2", 100, SETTLE)).as("%s", load).isTrue();
            assertThat(load.stop(SETTLE)).isTrue();

            assertThat(p1DuringOutage).as("p1 served during the outage").isPositive();
            assertThat(p2DuringOutage).as("p2 served during the outage").isPositive();
            assertThat(failuresDuringOutage).as("%s", load).isZero();
            assertThat(load.failures()).as("no failure after the restart either: %s", load).isZero();
        }
        Await.until(() -> directory.getInvokers().size() == 2, SETTLE, "both providers registered again " + directory);
    }

    @Test
    void gracefulProviderShutdownUnderLoad_failsNoCall() throws Exception {
        try (CallLoad load = CallLoad.start(() -> service.sayHello("ada"), ZookeeperGovernanceTest::providerKind, 4,
                600, LOAD_LIMIT)) {
            assertThat(load.awaitMore("p1", 100, SETTLE)).as("%s", load).isTrue();
            assertThat(load.awaitMore("p2", 100, SETTLE)).as("%s", load).isTrue();

            providers.remove(0).close();
            Await.until(() -> directory.getInvokers().size() == 1, SETTLE, "p1 left " + directory);
            assertThat(load.awaitMore("p2", 200, SETTLE)).as("%s", load).isTrue();
            long p1AfterClose = load.count("p1");
            assertThat(load.awaitMore("p2", 500, SETTLE)).as("%s", load).isTrue();

            assertThat(load.stop(SETTLE)).isTrue();
            assertThat(load.failures()).as("%s", load).isZero();
            assertThat(load.count("p1")).isEqualTo(p1AfterClose);
        }
    }

    private record Flip(String rule, Predicate<List<Invoker<GreetingService>>> inEffect) {
    }

    private static String helloKind(String answer) {
        if (answer.equals("degraded")) {
            return "degraded";
        }
        if (answer.equals("p1:hello ada") || answer.equals("p2:hello ada")) {
            return "real";
        }
        throw new AssertionError("unexpected answer: " + answer);
    }

    private static String byeKind(String answer) {
        if (answer.equals("p1:bye ada") || answer.equals("p2:bye ada")) {
            return "real";
        }
        throw new AssertionError("unexpected answer: " + answer);
    }

    private static String providerKind(String answer) {
        if (answer.equals("p1:hello ada") || answer.equals("p2:hello ada")) {
            return answer.substring(0, 2);
        }
        throw new AssertionError("unexpected answer: " + answer);
    }
}
