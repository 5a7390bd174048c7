package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** Closing a registry: while it is used, while ZooKeeper is gone, and what it leaves behind. */
class ZookeeperLifecycleTest {

    private static final String SERVICE = "com.example.LifecycleService";
    private static final URL CONSUMER = URL.valueOf("consumer://127.0.0.1/" + SERVICE + "?application=app");

    private TestingServer server;
    private CuratorFramework operator;

    @BeforeEach
    void startZooKeeper() throws Exception {
        server = EmbeddedZooKeeper.server();
        operator = EmbeddedZooKeeper.operator(server.getConnectString());
    }

    @AfterEach
    void stopZooKeeper() throws Exception {
        operator.close();
        server.close();
    }

    private ZookeeperRegistry registry() {
        return new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(server.getConnectString(), ""));
    }

    private static URL provider(int port) {
        return URL.valueOf("weft://127.0.0.1:" + port + "/" + SERVICE + "?application=demo");
    }

    private static Set<Thread> liveThreads() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).collect(Collectors.toSet());
    }

    /** Client threads started since {@code before} that are still alive (the server's and the JVM's pools aside). */
    private static List<String> newThreads(Set<Thread> before) {
        return liveThreads().stream().filter(t -> !before.contains(t))
                .map(Thread::getName)
                .filter(name -> !name.startsWith("ForkJoinPool") && !name.equals("Attach Listener")
                        && !name.startsWith("NIOWorkerThread"))
                .sorted().toList();
    }

    @Test
    void registerRacingClose_eachCallEitherRegistersOrFailsWithRegistryClosed() throws Exception {
        ZookeeperRegistry registry = registry();
        registry.register(provider(20000));
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        CountDownLatch started = new CountDownLatch(4);
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 4; t++) {
            int base = 20100 + t * 100;
            threads.add(new Thread(() -> {
                started.countDown();
                for (int i = 0; i < 50; i++) {
                    try {
                        registry.register(provider(base + i));
                        registry.subscribe(CONSUMER.addParameter("thread", base + i), new RecordingListener());
                    } catch (RuntimeException e) {
                        failures.add(e);
                        return;
                    }
                }
            }));
        }
        threads.forEach(Thread::start);
        started.await(10, TimeUnit.SECONDS);
        Thread.sleep(50);

        registry.close();
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(30));
        }

        assertThat(failures).allSatisfy(e -> assertThat(e).isInstanceOf(IllegalStateException.class)
                .hasMessageStartingWith("registry closed: zookeeper://127.0.0.1:"));
        Await.until("every ephemeral node gone with the registry", () -> {
            try {
                return operator.getChildren().forPath("/weft/" + SERVICE + "/providers").isEmpty();
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void useAfterClose_failsWithRegistryClosed_unsubscribeIsANoOp() {
        ZookeeperRegistry registry = registry();
        RecordingListener listener = new RecordingListener();
        registry.subscribe(CONSUMER, listener);
        registry.close();

        assertThatIllegalStateException().isThrownBy(() -> registry.subscribe(CONSUMER, new RecordingListener()))
                .withMessageStartingWith("registry closed: zookeeper://127.0.0.1:");
        assertThatIllegalStateException().isThrownBy(() -> registry.lookup(CONSUMER))
                .withMessageStartingWith("registry closed: zookeeper://127.0.0.1:");
        assertThatIllegalStateException().isThrownBy(() -> registry.unregister(provider(20000)))
                .withMessageStartingWith("registry closed: zookeeper://127.0.0.1:");
        registry.unsubscribe(CONSUMER, listener);
    }

    @Test
    void closedRegistries_leaveNoThreadAndNoSession() throws Exception {
        Set<Thread> before = liveThreads();
        List<long[]> sessions = new ArrayList<>();
        List<byte[]> passwords = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ZookeeperRegistry registry = registry();
            registry.register(provider(20880 + i));
            RecordingListener listener = new RecordingListener();
            registry.subscribe(CONSUMER.addParameter("category", "providers,configurators"), listener);
            Await.until("first lists", () -> listener.last("configurators") != null, listener::toString);
            ZooKeeper zooKeeper = registry.curator().getZookeeperClient().getZooKeeper();
            sessions.add(new long[] {zooKeeper.getSessionId()});
            passwords.add(zooKeeper.getSessionPasswd());
            registry.close();
        }

        Await.until("no thread left", () -> newThreads(before).isEmpty(), () -> newThreads(before));
        assertThat(operator.getChildren().forPath("/weft/" + SERVICE + "/providers")).isEmpty();
        for (int i = 0; i < sessions.size(); i++) {
            assertThat(sessionEnded(sessions.get(i)[0], passwords.get(i))).as("session %s ended", i).isTrue();
        }
    }

    /** Whether the server says {@code sessionId} expired when a client tries to resume it. */
    private boolean sessionEnded(long sessionId, byte[] password) throws Exception {
        CountDownLatch expired = new CountDownLatch(1);
        ZooKeeper resumed = new ZooKeeper(server.getConnectString(), EmbeddedZooKeeper.SESSION_MS, event -> {
            if (event.getState() == Watcher.Event.KeeperState.Expired) {
                expired.countDown();
            }
        }, sessionId, password);
        try {
            return expired.await(10, TimeUnit.SECONDS);
        } finally {
            resumed.close();
        }
    }

    @Test
    void secondCloseWhileTheFirstIsUnderWay_returnsOnlyOnceTheRegistryIsClosed() throws Exception {
        ZookeeperRegistry registry = registry();
        registry.register(provider(20880));
        server.stop();
        Await.until("suspended", () -> !registry.isAvailable(), registry::health);
        // With ZooKeeper down the first close waits up to the 1 s timeout for its deletes.
        Thread first = new Thread(registry::close);
        first.start();
        Await.until("the first close under way", () -> registry.health().state() == ZookeeperHealth.State.CLOSED);

        registry.close();

        assertThat(registry.curator().getState()).isEqualTo(CuratorFrameworkState.STOPPED);
        first.join(TimeUnit.SECONDS.toMillis(10));
    }

    @Test
    void closeWhileZooKeeperIsDown_returnsWithinTheTimeout_andLeavesNoThread() throws Exception {
        Set<Thread> before = liveThreads();
        ZookeeperRegistry registry = registry();
        registry.register(provider(20880));
        registry.register(provider(20881));
        registry.subscribe(CONSUMER, new RecordingListener());
        server.stop();
        Await.until("suspended", () -> !registry.isAvailable(), registry::health);

        long start = System.nanoTime();
        registry.close();
        Duration took = Duration.ofNanos(System.nanoTime() - start);

        // The connection timeout is 1 s; generous for two busy cores, far below a retry loop's length.
        assertThat(took).isLessThan(Duration.ofSeconds(4));
        assertThat(registry.health().state()).isEqualTo(ZookeeperHealth.State.CLOSED);
        Await.until("no thread left", () -> newThreads(before).isEmpty(), () -> newThreads(before));
    }
}
