package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.ClientSideExpiry;
import org.apache.zookeeper.ClientWatches;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import static org.assertj.core.api.Assertions.assertThat;

/** Many threads subscribing and unsubscribing at once, while providers come and go. */
class ZookeeperConcurrencyTest {

    private static final int SERVICES = 3;
    private static final int THREADS = 8;
    private static final int CYCLES = 25;

    private TestingServer server;
    private final List<ZookeeperRegistry> registries = new ArrayList<>();

    @BeforeEach
    void startZooKeeper() throws Exception {
        server = EmbeddedZooKeeper.server();
    }

    @AfterEach
    void stopAll() throws Exception {
        registries.forEach(ZookeeperRegistry::close);
        server.close();
    }

    private ZookeeperRegistry registry() {
        ZookeeperRegistry registry = new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(server.getConnectString(), ""));
        registries.add(registry);
        return registry;
    }

    private static String service(int s) {
        return "com.example.Concurrent" + s;
    }

    private static URL provider(int s, int port) {
        return URL.valueOf("weft://127.0.0.1:" + port + "/" + service(s));
    }

    private static URL consumer(int s, String tag) {
        return URL.valueOf("consumer://127.0.0.1/" + service(s) + "?category=providers,configurators&tag=" + tag);
    }

    @Test
    void threadsSubscribingAndUnsubscribingTheSameAndOtherServices_endWithTheTrueListsAndNoWatchLeft()
            throws Exception {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        ConcurrentLinkedQueue<Throwable> errors = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            int thread = t;
            threads.add(new Thread(() -> {
                Random random = new Random(thread);
                try {
                    for (int cycle = 0; cycle < CYCLES; cycle++) {
                        int s = random.nextInt(SERVICES);
                        // Half the threads share one subscription URL per service, half use their own.
                        URL url = consumer(s, thread % 2 == 0 ? "shared" : "t" + thread);
                        RecordingListener listener = new RecordingListener();
                        consumers.subscribe(url, listener);
                        if (random.nextBoolean()) {
                            providers.register(provider(s, 20000 + thread * 100 + cycle));
                        }
                        if (random.nextBoolean()) {
                            Thread.sleep(random.nextInt(20));
                        }
                        consumers.unsubscribe(url, listener);
                        if (listener.overlapped()) {
                            errors.add(new AssertionError("overlapping notifications on " + url));
                        }
                    }
                } catch (Throwable e) {
                    errors.add(e);
                }
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        }
        assertThat(errors).isEmpty();

        Await.until("no persistent watch left once every subscription is gone",
                () -> watches(consumers).isEmpty(), () -> watches(consumers));

        for (int s = 0; s < SERVICES; s++) {
            int service = s;
            // Read again on every look: a registration made by a cycle may still be on its way
            // (register waits for it only so long), and then the true list grows meanwhile.
            Supplier<List<String>> registered = () -> providers.lookup(consumer(service, "check")).stream()
                    .map(URL::getAddress).sorted().toList();
            RecordingListener listener = new RecordingListener();
            consumers.subscribe(consumer(s, "shared"), listener);
            Await.until(service(s) + " has every provider registered",
                    () -> registered.get().equals(listener.lastAddresses()),
                    () -> "registered " + registered.get() + ", seen " + listener);
            URL added = provider(s, 29000);
            providers.register(added);
            Await.until(service(s) + " sees a later provider",
                    () -> listener.lastAddresses().contains(added.getAddress()), listener::toString);
            assertThat(listener.overlapped()).isFalse();
        }
        assertThat(watches(consumers)).hasSize(2 * SERVICES);
    }

    @Test
    void subscribeThenUnsubscribeAtOnce_manyTimes_leavesNoWatch() throws Exception {
        ZookeeperRegistry consumers = registry();
        for (int cycle = 0; cycle < 200; cycle++) {
            URL url = consumer(cycle % SERVICES, "quick");
            RecordingListener listener = new RecordingListener();
            consumers.subscribe(url, listener);
            consumers.unsubscribe(url, listener);
        }
        Await.until("no persistent watch left once every subscription is gone",
                () -> watches(consumers).isEmpty(), () -> watches(consumers));
    }

    @Test
    void listenersStuckInNotify_delayOnlyTheirOwnSubscriptions_andNeverTheRegistrySessionWork() throws Exception {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        URL own = URL.valueOf("consumer://127.0.0.1/" + service(0) + "?category=consumers");
        consumers.register(own);
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch stuck = new CountDownLatch(SERVICES);
        try {
            for (int s = 0; s < SERVICES; s++) {
                consumers.subscribe(consumer(s, "stuck"), urls -> {
                    stuck.countDown();
                    try {
                        release.await(30, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                });
            }
            assertThat(stuck.await(20, TimeUnit.SECONDS)).as("every stuck listener called").isTrue();
            RecordingListener free = new RecordingListener();

            consumers.subscribe(consumer(0, "free"), free);
            providers.register(provider(0, 20880));

            Await.until("the free listener sees the provider",
                    () -> List.of("127.0.0.1:20880").equals(free.lastAddresses()), free::toString);

            // Dubbo #10181: work blocked behind listeners delayed re-registration after a session loss.
            long before = consumers.health().sessionId();
            ClientSideExpiry.expire(consumers.curator().getZookeeperClient().getZooKeeper());
            String ownPath = "/weft/" + service(0) + "/consumers/" + NodeNames.encode(own);
            Await.until("its own node owned by the new session", () -> {
                long now = consumers.health().sessionId();
                try {
                    Stat stat = consumers.curator().checkExists().forPath(ownPath);
                    return now != before && stat != null && stat.getEphemeralOwner() == now;
                } catch (Exception e) {
                    return false;
                }
            }, consumers::health);
            providers.register(provider(0, 20881));
            Await.until("the free listener sees a later provider", () -> free.lastAddresses().size() == 2,
                    free::toString);
        } finally {
            release.countDown();
        }
    }

    private static List<String> watches(ZookeeperRegistry registry) {
        try {
            return ClientWatches.persistent(registry.curator().getZookeeperClient().getZooKeeper());
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }
}
