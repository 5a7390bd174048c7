package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingCluster;
import org.junit.jupiter.api.Test;

import org.apache.zookeeper.data.Stat;

import java.io.IOException;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A 3-server ensemble losing its leader or all its servers: lists survive, changes keep flowing. */
class ZookeeperClusterTest {

    private static final String SERVICE = "com.example.DemoService";

    @Test
    void ensembleLosesItsLeader_subscribersKeepTheirLists_andSeeLaterChanges() throws Exception {
        try (TestingCluster cluster = EmbeddedZooKeeper.cluster(3)) {
            cluster.start();
            URL registryUrl = EmbeddedZooKeeper.registryUrl(cluster.getConnectString(), "session=15000");
            try (ZookeeperRegistry provider = new ZookeeperRegistry(registryUrl);
                    ZookeeperRegistry consumer = new ZookeeperRegistry(registryUrl)) {
                provider.register(URL.valueOf("weft://127.0.0.1:20880/" + SERVICE));
                RecordingListener listener = new RecordingListener();
                consumer.subscribe(URL.valueOf("consumer://127.0.0.1/" + SERVICE), listener);
                Await.until("A", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()), listener::toString);
                int notified = listener.count();

                InstanceSpec leader = leader(cluster);
                assertThat(cluster.killServer(leader)).isTrue();
                provider.register(URL.valueOf("weft://127.0.0.1:20881/" + SERVICE));

                Await.until("B after the new leader", () -> listener.lastAddresses().size() == 2, listener::toString);
                assertThat(listener.count()).isEqualTo(notified + 1);
                List<List<URL>> lists = listener.lists("providers");
                // The registration is made on the provider's worker thread, so the very first read may
                // come before it; after that, never empty.
                assertThat(lists.subList(notified - 1, lists.size()))
                        .noneMatch(l -> l.get(0).getProtocol().equals("empty"));
            }
        }
    }

    @Test
    void wholeEnsembleDownLongerThanTheSession_listsKept_thenRegistrationsAndListsComeBack() throws Exception {
        try (TestingCluster cluster = EmbeddedZooKeeper.cluster(3)) {
            cluster.start();
            URL registryUrl = EmbeddedZooKeeper.registryUrl(cluster.getConnectString(), "");
            URL a = URL.valueOf("weft://127.0.0.1:20880/" + SERVICE);
            URL b = URL.valueOf("weft://127.0.0.1:20881/" + SERVICE);
            try (ZookeeperRegistry provider = new ZookeeperRegistry(registryUrl);
                    ZookeeperRegistry consumer = new ZookeeperRegistry(registryUrl)) {
                provider.register(a);
                RecordingListener listener = new RecordingListener();
                consumer.subscribe(URL.valueOf("consumer://127.0.0.1/" + SERVICE), listener);
                Await.until("A", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()), listener::toString);
                int notified = listener.count();
                long providerSession = provider.health().sessionId();

                for (InstanceSpec spec : cluster.getInstances()) {
                    assertThat(cluster.killServer(spec)).isTrue();
                }
                Await.until("both sessions lost", () -> provider.health().state() == ZookeeperHealth.State.LOST
                        && consumer.health().state() == ZookeeperHealth.State.LOST, provider::health);
                assertThat(listener.count()).isEqualTo(notified);
                for (InstanceSpec spec : cluster.getInstances()) {
                    assertThat(cluster.restartServer(spec)).isTrue();
                }

                Await.until("A owned by the provider's new session", Duration.ofSeconds(40), () -> {
                    long now = provider.health().sessionId();
                    return now != providerSession && owner(consumer, a) == now;
                }, provider::health);
                provider.register(b);
                Await.until("A and B", () -> listener.lastAddresses().size() == 2, listener::toString);
                List<List<URL>> lists = listener.lists("providers");
                // The registration is made on the provider's worker thread, so the very first read may
                // come before it; after that, never empty.
                assertThat(lists.subList(notified - 1, lists.size()))
                        .noneMatch(l -> l.get(0).getProtocol().equals("empty"));
            }
        }
    }

    private static long owner(ZookeeperRegistry reader, URL url) {
        try {
            Stat stat = reader.curator().checkExists().forPath("/weft/" + SERVICE + "/providers/" + NodeNames.encode(url));
            return stat == null ? -1 : stat.getEphemeralOwner();
        } catch (Exception e) {
            return -1;
        }
    }

    private static InstanceSpec leader(TestingCluster cluster) {
        Await.until("a leader", () -> cluster.getInstances().stream().anyMatch(ZookeeperClusterTest::leads));
        return cluster.getInstances().stream().filter(ZookeeperClusterTest::leads).findFirst().orElseThrow();
    }

    /** Asks the server with the four-letter word {@code srvr} (allowed by default) whether it leads. */
    private static boolean leads(InstanceSpec spec) {
        try (Socket socket = new Socket("127.0.0.1", spec.getPort())) {
            socket.setSoTimeout(2_000);
            socket.getOutputStream().write("srvr".getBytes(StandardCharsets.US_ASCII));
            socket.getOutputStream().flush();
            String answer = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            return answer.contains("Mode: leader");
        } catch (IOException e) {
            return false;
        }
    }
}
