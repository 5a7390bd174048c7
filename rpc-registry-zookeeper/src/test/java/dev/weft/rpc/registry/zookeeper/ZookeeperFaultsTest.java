package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ClientSideExpiry;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Session expiry and ZooKeeper restarts, each test on its own embedded server: subscribers keep
 * their last lists through trouble, then get fresh ones; registrations come back.
 */
class ZookeeperFaultsTest {

    private static final String SERVICE = "com.example.DemoService";
    private static final URL A = URL.valueOf("weft://127.0.0.1:20880/" + SERVICE + "?application=demo");
    private static final URL B = URL.valueOf("weft://127.0.0.1:20881/" + SERVICE + "?application=demo");
    private static final URL C = URL.valueOf("weft://127.0.0.1:20882/" + SERVICE + "?application=demo");
    private static final URL CONSUMER = URL.valueOf("consumer://127.0.0.1/" + SERVICE + "?application=app");

    private TestingServer server;
    private CuratorFramework operator;
    private final List<ZookeeperRegistry> registries = new ArrayList<>();

    @BeforeEach
    void startZooKeeper() throws Exception {
        server = EmbeddedZooKeeper.server();
        operator = EmbeddedZooKeeper.operator(server.getConnectString());
    }

    @AfterEach
    void stopAll() throws Exception {
        registries.forEach(ZookeeperRegistry::close);
        operator.close();
        server.close();
    }

    private ZookeeperRegistry registry(int sessionMs) {
        ZookeeperRegistry registry = new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(server.getConnectString(),
                "").addParameter(ZookeeperRegistry.SESSION_KEY, sessionMs));
        registries.add(registry);
        return registry;
    }

    private static String path(URL url) {
        return "/weft/" + SERVICE + "/providers/" + NodeNames.encode(url);
    }

    private long owner(URL url) throws Exception {
        Stat stat = operator.checkExists().forPath(path(url));
        return stat == null ? -1 : stat.getEphemeralOwner();
    }

    /**
     * Waits until {@code url}'s node is {@code registry}'s: on a busy machine the first connection
     * may outlast the 1 s that {@code register} waits, and a consumer subscribing before the node
     * exists rightly gets an empty first list.
     */
    private void awaitRegistered(ZookeeperRegistry registry, URL url) {
        Await.until(url + " registered", () -> {
            try {
                long session = registry.health().sessionId();
                return session != 0 && owner(url) == session;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, registry::health);
    }

    private static long emptyLists(RecordingListener listener) {
        return listener.lists("providers").stream().filter(l -> l.get(0).getProtocol().equals("empty")).count();
    }

    @Test
    void consumerSessionExpiry_listKeptThenConverges_neverEmpty() throws Exception {
        ZookeeperRegistry provider = registry(EmbeddedZooKeeper.SESSION_MS);
        ZookeeperRegistry consumer = registry(EmbeddedZooKeeper.SESSION_MS);
        provider.register(A);
        awaitRegistered(provider, A);
        RecordingListener listener = new RecordingListener();
        consumer.subscribe(CONSUMER, listener);
        Await.until("A", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()), listener::toString);
        long before = consumer.health().sessionId();

        ClientSideExpiry.expire(consumer.curator().getZookeeperClient().getZooKeeper());
        provider.register(B);
        provider.register(C);
        provider.unregister(A);

        Await.until("B and C after the new session",
                () -> List.of("127.0.0.1:20881", "127.0.0.1:20882").equals(listener.lastAddresses()),
                listener::toString);
        Await.until("a new session", () -> consumer.health().sessionId() != before, consumer::health);
        assertThat(emptyLists(listener)).isZero();
    }

    /** A provider's node, held by a session of its own (closing the client deletes it, as ZooKeeper reaping the session would). */
    private CuratorFramework providerNode(URL url) throws Exception {
        CuratorFramework provider = EmbeddedZooKeeper.operator(server.getConnectString());
        provider.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL).forPath(path(url));
        return provider;
    }

    /**
     * An outage longer than every session, as the consumer sees it: its own session is lost, and
     * the provider's node goes (its session reaped) before the provider, reconnecting, creates it
     * again. Reading the folder in between must not empty the consumer's list.
     */
    @Test
    void consumerSessionLost_providersFolderReadEmptyBeforeTheyRegisterAgain_lastListKept() throws Exception {
        ZookeeperRegistry consumer = registry(EmbeddedZooKeeper.SESSION_MS);
        CuratorFramework provider = providerNode(A);
        RecordingListener listener = new RecordingListener();
        consumer.subscribe(CONSUMER, listener);
        Await.until("A", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()), listener::toString);
        long before = consumer.health().sessionId();

        ClientSideExpiry.expire(consumer.curator().getZookeeperClient().getZooKeeper());
        provider.close();
        Await.until("a new session", () -> consumer.health().sessionId() != before, consumer::health);
        Await.until("the empty folder read and held back", () -> consumer.heldEmptyReads() > 0, listener::toString);
        // The provider registers again (at another port, so that its node's arrival is seen).
        try (CuratorFramework registeredAgain = providerNode(B)) {
            Await.until("B", () -> List.of("127.0.0.1:20881").equals(listener.lastAddresses()), listener::toString);
            assertThat(emptyLists(listener)).as("%s", listener).isZero();
        }
    }

    @Test
    void consumerSessionLost_providersFolderStillEmptyWhenTheGraceEnds_isDeliveredEmpty() throws Exception {
        ZookeeperRegistry consumer = new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(server.getConnectString(),
                ZookeeperRegistry.EMPTY_GRACE_KEY + "=1000"));
        registries.add(consumer);
        CuratorFramework provider = providerNode(A);
        RecordingListener listener = new RecordingListener();
        consumer.subscribe(CONSUMER, listener);
        Await.until("A", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()), listener::toString);
        long before = consumer.health().sessionId();

        ClientSideExpiry.expire(consumer.curator().getZookeeperClient().getZooKeeper());
        provider.close();

        Await.until("the empty list, once the grace ended", Duration.ofSeconds(20), () -> listener.lastIsEmpty("providers"),
                listener::toString);
        assertThat(consumer.health().sessionId()).isNotEqualTo(before);
        assertThat(consumer.heldEmptyReads()).isPositive();
    }

    @Test
    void emptyGrace_negative_isRefusedNamingTheKey() {
        assertThatIllegalArgumentException().isThrownBy(() -> new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(
                server.getConnectString(), ZookeeperRegistry.EMPTY_GRACE_KEY + "=-1")))
                .withMessageStartingWith("empty-grace: -1 (expected: >= 0 ms)");
    }

    @Test
    void providerSessionExpiry_theStaleNodeIsReplacedAtOnce_ownedByTheNewSession() throws Exception {
        // A long session: ZooKeeper keeps the expired session's node for 30 s unless the registry replaces it.
        ZookeeperRegistry provider = registry(30_000);
        ZookeeperRegistry other = registry(EmbeddedZooKeeper.SESSION_MS);
        ZookeeperRegistry consumer = registry(EmbeddedZooKeeper.SESSION_MS);
        provider.register(A);
        other.register(B);
        awaitRegistered(provider, A);
        awaitRegistered(other, B);
        RecordingListener listener = new RecordingListener();
        consumer.subscribe(CONSUMER, listener);
        Await.until("A and B", () -> listener.lastAddresses() != null && listener.lastAddresses().size() == 2);
        long oldSession = provider.health().sessionId();
        assertThat(owner(A)).isEqualTo(oldSession);

        ClientSideExpiry.expire(provider.curator().getZookeeperClient().getZooKeeper());

        Await.until("A owned by the provider's new session well before the old one is reaped",
                Duration.ofSeconds(15),
                () -> {
                    long now = provider.health().sessionId();
                    try {
                        return now != oldSession && owner(A) == now;
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }, provider::health);
        Await.until("the consumer sees A and B", () -> listener.lastAddresses().size() == 2, listener::toString);
        assertThat(emptyLists(listener)).isZero();
    }

    @Test
    void providerSessionExpiry_ofTheOnlyProvider_consumerNeverSeesItMissing() throws Exception {
        // The stale node is replaced while the old session still holds it: were it deleted and then
        // created, a consumer reading in between would find no provider at all.
        ZookeeperRegistry provider = registry(30_000);
        ZookeeperRegistry consumer = registry(EmbeddedZooKeeper.SESSION_MS);
        provider.register(A);
        awaitRegistered(provider, A);
        RecordingListener listener = new RecordingListener();
        consumer.subscribe(CONSUMER, listener);
        Await.until("A", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()), listener::toString);

        for (int expiry = 0; expiry < 5; expiry++) {
            long oldSession = provider.health().sessionId();
            ClientSideExpiry.expire(provider.curator().getZookeeperClient().getZooKeeper());
            Await.until("A owned by the provider's new session", Duration.ofSeconds(15), () -> {
                long now = provider.health().sessionId();
                try {
                    return now != oldSession && owner(A) == now;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }, provider::health);
        }

        assertThat(emptyLists(listener)).as("%s", listener).isZero();
        assertThat(listener.lists("providers")).as("%s", listener)
                .allSatisfy(list -> assertThat(list).extracting(URL::getAddress).containsExactly("127.0.0.1:20880"));
    }

    @Test
    void backToBackSessionExpiries_ofARegistryThatRegistersAndSubscribes_endOwnedByTheLastSession_withTheTrueList()
            throws Exception {
        // A long session: nodes of the expired sessions would stay 30 s unless the registry replaced them.
        ZookeeperRegistry both = registry(30_000);
        ZookeeperRegistry other = registry(EmbeddedZooKeeper.SESSION_MS);
        both.register(A);
        awaitRegistered(both, A);
        RecordingListener listener = new RecordingListener();
        both.subscribe(CONSUMER, listener);
        Await.until("A", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()), listener::toString);

        List<URL> others = List.of(B, C);
        for (int expiry = 0; expiry < 6; expiry++) {
            long before = both.health().sessionId();
            ClientSideExpiry.expire(both.curator().getZookeeperClient().getZooKeeper());
            // B and C join, leave, join again: one change while each session is gone.
            URL changed = others.get(expiry % 2);
            if (expiry / 2 % 2 == 0) {
                other.register(changed);
            } else {
                other.unregister(changed);
            }
            // Expire again as soon as a new session is connected, before the registry may have caught up.
            Await.until("a new session", Duration.ofSeconds(15), () -> {
                try {
                    ZooKeeper zk = both.curator().getZookeeperClient().getZooKeeper();
                    return zk.getState().isConnected() && zk.getSessionId() != before;
                } catch (Exception e) {
                    return false;
                }
            }, both::health);
        }

        Await.until("A owned by the last session, well before an expired one would be reaped",
                Duration.ofSeconds(15), () -> {
                    try {
                        long now = both.curator().getZookeeperClient().getZooKeeper().getSessionId();
                        return both.health().sessionId() == now && owner(A) == now;
                    } catch (Exception e) {
                        throw new AssertionError(e);
                    }
                }, both::health);
        List<String> expected = List.of("127.0.0.1:20880", "127.0.0.1:20881", "127.0.0.1:20882");
        Await.until("the true list", () -> expected.equals(listener.lastAddresses()), listener::toString);
        assertThat(emptyLists(listener)).isZero();
        assertThat(listener.overlapped()).isFalse();
        assertThat(operator.getChildren().forPath("/weft/" + SERVICE + "/providers")).hasSize(3);
    }

    /**
     * Back-to-back expiries can land a registration in a session the registry never saw connected
     * (created and lost between two looks at its connection); its node, still held by the server,
     * carries the registry's identity and is replaced at once, not waited for until it is reaped.
     */
    @Test
    void nodeOfASessionTheRegistryNeverRecorded_withItsIdentity_isReplacedAtOnce() throws Exception {
        ZookeeperRegistry registry = registry(EmbeddedZooKeeper.SESSION_MS);
        try (CuratorFramework lostSession = EmbeddedZooKeeper.operator(server.getConnectString())) {
            lostSession.create().creatingParentsIfNeeded().withMode(CreateMode.EPHEMERAL)
                    .forPath(path(A), registry.identity());
            long lost = lostSession.getZookeeperClient().getZooKeeper().getSessionId();

            registry.register(A);

            Await.until("A owned by the registry's session", () -> {
                try {
                    return owner(A) == registry.health().sessionId();
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            }, registry::health);
            assertThat(owner(A)).isNotEqualTo(lost);
        }
    }

    @Test
    void zooKeeperRestartWithinTheSession_sameSession_noNotification_thenFreshLists() throws Exception {
        ZookeeperRegistry provider = registry(20_000);
        ZookeeperRegistry consumer = registry(20_000);
        provider.register(A);
        awaitRegistered(provider, A);
        RecordingListener listener = new RecordingListener();
        consumer.subscribe(CONSUMER, listener);
        Await.until("A", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()), listener::toString);
        int notified = listener.count();
        long providerSession = provider.health().sessionId();

        server.restart();
        Await.until("reconnected", () -> consumer.isAvailable() && provider.isAvailable());
        provider.register(B);

        Await.until("B after the restart", () -> listener.lastAddresses().size() == 2, listener::toString);
        assertThat(listener.count()).isEqualTo(notified + 1);
        assertThat(provider.health().sessionId()).isEqualTo(providerSession);
        assertThat(owner(A)).isEqualTo(providerSession);
    }

    @Test
    void zooKeeperDownBeyondTheSession_subscribersKeepTheirLists_thenEverythingComesBack() throws Exception {
        ZookeeperRegistry provider = registry(EmbeddedZooKeeper.SESSION_MS);
        ZookeeperRegistry consumer = registry(EmbeddedZooKeeper.SESSION_MS);
        provider.register(A);
        provider.register(B);
        awaitRegistered(provider, A);
        awaitRegistered(provider, B);
        RecordingListener listener = new RecordingListener();
        consumer.subscribe(CONSUMER, listener);
        Await.until("A and B", () -> listener.lastAddresses() != null && listener.lastAddresses().size() == 2);
        int notified = listener.count();
        long providerSession = provider.health().sessionId();

        server.stop();
        Await.until("the consumer's session lost", () -> consumer.health().state() == ZookeeperHealth.State.LOST,
                consumer::health);
        assertThat(consumer.isAvailable()).isFalse();
        assertThat(listener.count()).isEqualTo(notified);
        server.restart();

        Await.until("the provider on a new session owns both nodes", () -> {
            long now = provider.health().sessionId();
            try {
                return now != providerSession && owner(A) == now && owner(B) == now;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, provider::health);
        provider.register(C);
        Await.until("A, B and C", () -> listener.lastAddresses().size() == 3, listener::toString);
        assertThat(emptyLists(listener)).isZero();
        assertThat(consumer.health().state()).isEqualTo(ZookeeperHealth.State.CONNECTED);
    }

    @Test
    void unregisterAndUnsubscribeWhileZooKeeperIsDown_takeEffectWhenItIsBack_sameSession() throws Exception {
        ZookeeperRegistry provider = registry(20_000);
        ZookeeperRegistry consumer = registry(20_000);
        ZookeeperRegistry watcher = registry(20_000);
        provider.register(A);
        provider.register(B);
        awaitRegistered(provider, A);
        awaitRegistered(provider, B);
        RecordingListener leaving = new RecordingListener();
        RecordingListener staying = new RecordingListener();
        consumer.subscribe(CONSUMER, leaving);
        watcher.subscribe(CONSUMER, staying);
        Await.until("A and B", () -> leaving.lastAddresses() != null && leaving.lastAddresses().size() == 2
                && staying.lastAddresses() != null && staying.lastAddresses().size() == 2);
        long providerSession = provider.health().sessionId();
        long consumerSession = consumer.health().sessionId();

        server.stop();
        Await.until("suspended", () -> !provider.isAvailable() && !consumer.isAvailable());
        provider.unregister(A);
        consumer.unsubscribe(CONSUMER, leaving);
        int left = leaving.count();
        server.restart();

        Await.until("A gone for good, B kept", () -> {
            try {
                return owner(A) == -1 && owner(B) == providerSession;
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, () -> staying);
        Await.until("the staying subscriber sees only B",
                () -> List.of("127.0.0.1:20881").equals(staying.lastAddresses()), staying::toString);
        Await.until("the unsubscribed folder no longer watched", () -> org.apache.zookeeper.ClientWatches.persistent(
                zooKeeper(consumer)).isEmpty(), () -> org.apache.zookeeper.ClientWatches.persistent(zooKeeper(consumer)));
        provider.register(C);
        Await.until("C", () -> staying.lastAddresses().size() == 2, staying::toString);
        assertThat(leaving.count()).isEqualTo(left);
        assertThat(provider.health().sessionId()).isEqualTo(providerSession);
        assertThat(consumer.health().sessionId()).isEqualTo(consumerSession);
    }

    @Test
    void nodeHeldByAnotherLiveSession_isLeftAlone_thenTakenOverWhenThatSessionEnds() throws Exception {
        CuratorFramework squatter = EmbeddedZooKeeper.operator(server.getConnectString());
        long squatterSession = squatter.getZookeeperClient().getZooKeeper().getSessionId();
        squatter.create().creatingParentsIfNeeded().withMode(org.apache.zookeeper.CreateMode.EPHEMERAL)
                .forPath(path(A));
        ZookeeperRegistry provider = registry(EmbeddedZooKeeper.SESSION_MS);

        provider.register(A);
        assertThat(owner(A)).isEqualTo(squatterSession);
        squatter.close();

        Await.until("A owned by the provider", () -> {
            try {
                return owner(A) == provider.health().sessionId();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        }, provider::health);
    }

    @Test
    void urlTooLargeForANode_failsAtOnce_andTheRegistryStaysConnected() throws Exception {
        ZookeeperRegistry provider = registry(EmbeddedZooKeeper.SESSION_MS);
        List<String> states = new java.util.concurrent.CopyOnWriteArrayList<>();
        provider.curator().getConnectionStateListenable().addListener((c, state) -> states.add(state.toString()));
        provider.register(B);
        URL huge = A.addParameter("methods", "m".repeat(1_100_000));

        assertThatIllegalArgumentException().isThrownBy(() -> provider.register(huge))
                .withMessageStartingWith("register weft://127.0.0.1:20880/" + SERVICE + ": node path of 1100")
                .withMessageContaining("(expected: at most 1047551 bytes")
                .matches(e -> e.getMessage().length() < 1_000, "a short message");

        provider.register(C);
        assertThat(owner(C)).isEqualTo(provider.health().sessionId());
        assertThat(owner(A)).isEqualTo(-1);
        assertThat(states).doesNotContain("SUSPENDED");
        assertThat(provider.isAvailable()).isTrue();
    }

    @Test
    void registryStartedWhileZooKeeperIsDown_registersAndSubscribesOnceItIsUp() throws Exception {
        server.stop();
        ZookeeperRegistry provider = registry(EmbeddedZooKeeper.SESSION_MS);
        ZookeeperRegistry consumer = registry(EmbeddedZooKeeper.SESSION_MS);
        provider.register(A);
        RecordingListener listener = new RecordingListener();
        consumer.subscribe(CONSUMER, listener);
        assertThat(listener.count()).isZero();

        server.restart();

        Await.until("A registered and seen", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()),
                listener::toString);
        assertThat(owner(A)).isEqualTo(provider.health().sessionId());
        provider.register(B);
        Await.until("B", () -> listener.lastAddresses().size() == 2, listener::toString);
        // The consumer may read before the provider has registered (a true empty list), never after.
        List<List<URL>> lists = listener.lists("providers");
        assertThat(lists.subList(lists.size() - 2, lists.size()))
                .noneMatch(l -> l.get(0).getProtocol().equals("empty"));
    }

    private static org.apache.zookeeper.ZooKeeper zooKeeper(ZookeeperRegistry registry) {
        try {
            return registry.curator().getZookeeperClient().getZooKeeper();
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void explicitlyEmptyFolder_isDeliveredAsTheEmptyMarker_notConfusedWithAnOutage() throws Exception {
        ZookeeperRegistry provider = registry(EmbeddedZooKeeper.SESSION_MS);
        ZookeeperRegistry consumer = registry(EmbeddedZooKeeper.SESSION_MS);
        provider.register(A);
        awaitRegistered(provider, A);
        RecordingListener listener = new RecordingListener();
        consumer.subscribe(CONSUMER, listener);
        Await.until("A", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()), listener::toString);

        provider.unregister(A);

        Await.until("explicitly empty", () -> listener.lastIsEmpty("providers"), listener::toString);
        assertThat(operator.checkExists().forPath("/weft/" + SERVICE + "/providers").getNumChildren()).isZero();
        assertThat(listener.last("providers").get(0).getParameter("category")).isEqualTo("providers");
    }
}
