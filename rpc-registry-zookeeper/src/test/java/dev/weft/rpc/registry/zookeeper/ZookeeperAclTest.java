package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.ACL;
import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** Digest authentication: nodes readable by anyone, writable only by the registry's identity. */
class ZookeeperAclTest {

    private static final String SERVICE = "com.example.SecureService";

    @Test
    void digestIdentity_createsNodesOthersCanReadButNotWrite_andTheOperatorWithTheIdentityCan() throws Exception {
        try (TestingServer server = EmbeddedZooKeeper.server()) {
            String connect = server.getConnectString();
            URL registryUrl = URL.valueOf("zookeeper://alice:s3cret@" + connect + "?session=3000&timeout=1000");
            URL provider = URL.valueOf("weft://127.0.0.1:20880/" + SERVICE);
            try (ZookeeperRegistry registry = new ZookeeperRegistry(registryUrl);
                    CuratorFramework anonymous = EmbeddedZooKeeper.operator(connect);
                    CuratorFramework admin = authenticated(connect, "alice:s3cret")) {
                registry.register(provider);
                RecordingListener listener = new RecordingListener();
                registry.subscribe(URL.valueOf("consumer://127.0.0.1/" + SERVICE + "?category=providers,configurators"),
                        listener);
                Await.until("configurators folder", () -> listener.lastIsEmpty("configurators"), listener::toString);
                String providerPath = "/weft/" + SERVICE + "/providers/" + NodeNames.encode(provider);
                String rule = "/weft/" + SERVICE + "/configurators/" + NodeNames.encode(URL.valueOf(
                        "override://0.0.0.0/" + SERVICE + "?category=configurators&dynamic=false&sayHello.mock=force%3Areturn+x"));

                assertThat(anonymous.getChildren().forPath("/weft/" + SERVICE + "/providers")).hasSize(1);
                assertThatExceptionOfType(KeeperException.NoAuthException.class)
                        .isThrownBy(() -> anonymous.create().forPath(rule));
                assertThatExceptionOfType(KeeperException.NoAuthException.class)
                        .isThrownBy(() -> anonymous.delete().forPath(providerPath));
                List<ACL> acl = anonymous.getACL().forPath(providerPath);
                assertThat(acl).extracting(a -> a.getId().getScheme() + ":" + a.getPerms())
                        .containsExactlyInAnyOrder("world:1", "digest:31");

                admin.create().forPath(rule);

                Await.until("the rule", () -> !listener.lastIsEmpty("configurators"), listener::toString);
                assertThat(listener.last("configurators").get(0).getParameter("sayHello.mock")).isEqualTo("force:return x");
                assertThat(registry.toString()).doesNotContain("s3cret").contains("alice:***");
            }
        }
    }

    @Test
    void registerUnderAFolderOfAnotherIdentity_failsAtOnce_namingThePathAndTheAcl() throws Exception {
        try (TestingServer server = EmbeddedZooKeeper.server()) {
            String connect = server.getConnectString();
            URL owner = URL.valueOf("zookeeper://alice:s3cret@" + connect + "?session=3000&timeout=1000");
            URL intruder = URL.valueOf("zookeeper://bob:other@" + connect + "?session=3000&timeout=1000");
            URL anonymous = URL.valueOf("zookeeper://" + connect + "?session=3000&timeout=1000");
            URL provider = URL.valueOf("weft://127.0.0.1:20880/" + SERVICE);
            String providers = "/weft/" + SERVICE + "/providers";
            try (ZookeeperRegistry alice = new ZookeeperRegistry(owner);
                    ZookeeperRegistry bob = new ZookeeperRegistry(intruder);
                    ZookeeperRegistry nobody = new ZookeeperRegistry(anonymous);
                    CuratorFramework reader = EmbeddedZooKeeper.operator(connect)) {
                alice.register(provider);
                Await.until("alice's folders", () -> exists(reader, providers + "/" + NodeNames.encode(provider)));
                URL second = URL.valueOf("weft://127.0.0.1:20881/" + SERVICE);

                for (ZookeeperRegistry other : List.of(bob, nobody)) {
                    // Connected first: register waits only 1 s, which a first connection may outlast on a busy machine.
                    Await.until("connected", other::isAvailable, other::health);
                    assertThatIllegalStateException().isThrownBy(() -> other.register(second))
                            .withMessageContaining("register " + second)
                            .withMessageContaining(providers)
                            .withMessageContaining("NoAuth");
                }

                assertThat(reader.getChildren().forPath(providers)).containsExactly(NodeNames.encode(provider));
                alice.register(second);
                assertThat(reader.getChildren().forPath(providers)).hasSize(2);
            }
        }
    }

    @Test
    void unregisterOfARuleByAnotherIdentity_failsAtOnce_andTheRuleStays() throws Exception {
        try (TestingServer server = EmbeddedZooKeeper.server()) {
            String connect = server.getConnectString();
            URL rule = URL.valueOf("override://0.0.0.0/" + SERVICE + "?category=configurators&dynamic=false&timeout=300");
            String rulePath = "/weft/" + SERVICE + "/configurators/" + NodeNames.encode(rule);
            try (ZookeeperRegistry alice = new ZookeeperRegistry(
                    URL.valueOf("zookeeper://alice:s3cret@" + connect + "?session=3000&timeout=1000"));
                    ZookeeperRegistry nobody = new ZookeeperRegistry(
                            URL.valueOf("zookeeper://" + connect + "?session=3000&timeout=1000"));
                    CuratorFramework reader = EmbeddedZooKeeper.operator(connect)) {
                alice.register(rule);
                Await.until("the rule written", () -> exists(reader, rulePath));
                Await.until("connected", nobody::isAvailable, nobody::health);

                assertThatIllegalStateException().isThrownBy(() -> nobody.unregister(rule))
                        .withMessageContaining("unregister " + rule)
                        .withMessageContaining("NoAuth for " + rulePath);

                assertThat(reader.checkExists().forPath(rulePath)).isNotNull();
                alice.unregister(rule);
                assertThat(reader.checkExists().forPath(rulePath)).isNull();
            }
        }
    }

    @Test
    void userWithoutPassword_isRejectedAtOnce() {
        assertThatExceptionOfType(IllegalArgumentException.class)
                .isThrownBy(() -> new ZookeeperRegistry(URL.valueOf("zookeeper://alice@127.0.0.1:2181")))
                .withMessageStartingWith("registry password: (none) (expected: zookeeper://user:password@host:port");
    }

    private static boolean exists(CuratorFramework reader, String path) {
        try {
            return reader.checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    private static CuratorFramework authenticated(String connect, String userAndPassword) throws InterruptedException {
        CuratorFramework client = CuratorFrameworkFactory.builder().connectString(connect)
                .retryPolicy(new RetryNTimes(3, 100))
                .authorization("digest", userAndPassword.getBytes(StandardCharsets.UTF_8)).build();
        client.start();
        client.blockUntilConnected();
        return client;
    }
}
