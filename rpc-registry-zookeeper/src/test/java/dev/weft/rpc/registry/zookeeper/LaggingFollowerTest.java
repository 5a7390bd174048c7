package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.apache.curator.test.TestingZooKeeperServer;
import org.apache.jute.InputArchive;
import org.apache.zookeeper.server.quorum.Follower;
import org.apache.zookeeper.server.quorum.Learner;
import org.apache.zookeeper.server.quorum.QuorumPeer;
import org.apache.zookeeper.server.quorum.QuorumPeerMain;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.lang.reflect.Field;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A consumer connected to a follower that lags behind the leader: its first list is the ensemble's,
 * never the follower's stale one.
 */
class LaggingFollowerTest {

    private static final String SERVICE = "com.example.DemoService";

    @Test
    void firstRead_onAFollowerThatLags_waitsForTheLeadersState_neverDeliversTheStaleEmptyList() throws Exception {
        try (TestingCluster cluster = EmbeddedZooKeeper.cluster(3)) {
            cluster.start();
            InstanceSpec leader = awaitLeader(cluster);
            TestingZooKeeperServer follower = cluster.getServers().stream()
                    .filter(s -> !s.getInstanceSpec().equals(leader)).findFirst().orElseThrow();
            String leaderAddress = "127.0.0.1:" + leader.getPort();
            String followerAddress = "127.0.0.1:" + follower.getInstanceSpec().getPort();
            CountDownLatch caughtUp = new CountDownLatch(1);
            try (CuratorFramework operator = EmbeddedZooKeeper.operator(leaderAddress);
                    ZookeeperRegistry provider = new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(leaderAddress, ""));
                    ZookeeperRegistry consumer = new ZookeeperRegistry(
                            EmbeddedZooKeeper.registryUrl(followerAddress, "session=15000"))) {
                operator.create().creatingParentsIfNeeded().forPath("/weft/" + SERVICE + "/providers");
                Await.until("the consumer connected to the follower",
                        () -> consumer.health().state() == ZookeeperHealth.State.CONNECTED, consumer::health);
                Await.until("the follower has the folder",
                        () -> exists(consumer, "/weft/" + SERVICE + "/providers"), consumer::health);

                stallLearner(follower, caughtUp);
                provider.register(URL.valueOf("weft://127.0.0.1:20880/" + SERVICE));
                Await.until("the provider's node, committed by the leader and the other follower",
                        () -> children(operator).size() == 1, () -> children(operator));

                RecordingListener listener = new RecordingListener();
                consumer.subscribe(URL.valueOf("consumer://127.0.0.1/" + SERVICE + "?category=providers"), listener);
                Thread.sleep(1_000); // the follower, still behind, would answer a read within this
                caughtUp.countDown();

                Await.until("the provider", Duration.ofSeconds(60),
                        () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()), listener::toString);
                assertThat(listener.lists("providers")).as("every list delivered")
                        .noneMatch(l -> l.get(0).getProtocol().equals("empty"));
            } finally {
                caughtUp.countDown();
            }
        }
    }

    /**
     * Makes {@code server}, a follower, stop applying what the leader sends (it still serves its
     * clients) until {@code release} opens: its learner's input from the leader is replaced by
     * one that waits first.
     */
    private static void stallLearner(TestingZooKeeperServer server, CountDownLatch release) throws Exception {
        Method getMain = TestingZooKeeperServer.class.getDeclaredMethod("getMain");
        getMain.setAccessible(true);
        // curator-test runs ZooKeeper's embedded server, which runs a QuorumPeerMain
        Object embedded = field(getMain.invoke(server), "zooKeeperEmbedded");
        QuorumPeerMain main = (QuorumPeerMain) field(embedded, "maincluster");
        Follower follower = ((QuorumPeer) field(main, "quorumPeer")).follower;
        assertThat(follower).as("a follower").isNotNull();
        Field leaderIs = Learner.class.getDeclaredField("leaderIs");
        leaderIs.setAccessible(true);
        InputArchive real = (InputArchive) leaderIs.get(follower);
        leaderIs.set(follower, Proxy.newProxyInstance(InputArchive.class.getClassLoader(),
                new Class<?>[] {InputArchive.class}, (proxy, method, args) -> {
                    if (method.getDeclaringClass() == Object.class) {
                        return method.invoke(real, args);
                    }
                    release.await(60, TimeUnit.SECONDS);
                    try {
                        return method.invoke(real, args);
                    } catch (InvocationTargetException e) {
                        throw e.getCause();
                    }
                }));
    }

    /** The value of the field {@code name} of {@code target}, declared by its class or a superclass. */
    private static Object field(Object target, String name) throws ReflectiveOperationException {
        for (Class<?> type = target.getClass(); type != null; type = type.getSuperclass()) {
            try {
                Field field = type.getDeclaredField(name);
                field.setAccessible(true);
                return field.get(target);
            } catch (NoSuchFieldException e) {
                // look in the superclass
            }
        }
        throw new NoSuchFieldException(target.getClass() + "." + name);
    }

    private static List<String> children(CuratorFramework client) {
        try {
            return client.getChildren().forPath("/weft/" + SERVICE + "/providers");
        } catch (Exception e) {
            return List.of();
        }
    }

    private static boolean exists(ZookeeperRegistry registry, String path) {
        try {
            return registry.curator().checkExists().forPath(path) != null;
        } catch (Exception e) {
            return false;
        }
    }

    private static InstanceSpec awaitLeader(TestingCluster cluster) {
        Await.until("a leader", () -> cluster.getInstances().stream().anyMatch(LaggingFollowerTest::leads));
        return cluster.getInstances().stream().filter(LaggingFollowerTest::leads).findFirst().orElseThrow();
    }

    private static boolean leads(InstanceSpec spec) {
        try (Socket socket = new Socket("127.0.0.1", spec.getPort())) {
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            return new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).contains("Mode: leader");
        } catch (IOException e) {
            return false;
        }
    }
}
