package dev.weft.rpc.registry.zookeeper;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.Registry;
import dev.weft.rpc.registry.RegistryFactory;
import dev.weft.rpc.spi.ExtensionLoader;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/** The registry against one real embedded ZooKeeper; each test uses its own service name. */
class ZookeeperRegistryTest {

    private static final AtomicInteger SERVICES = new AtomicInteger();
    private static TestingServer server;
    private static CuratorFramework operator;
    private final List<ZookeeperRegistry> registries = new ArrayList<>();
    private final String service = "com.example.DemoService" + SERVICES.incrementAndGet();

    @BeforeAll
    static void startZooKeeper() throws Exception {
        server = EmbeddedZooKeeper.server();
        operator = EmbeddedZooKeeper.operator(server.getConnectString());
    }

    @AfterAll
    static void stopZooKeeper() throws Exception {
        operator.close();
        server.close();
    }

    @AfterEach
    void closeRegistries() {
        registries.forEach(ZookeeperRegistry::close);
    }

    private ZookeeperRegistry registry() {
        return registry("");
    }

    private ZookeeperRegistry registry(String query) {
        ZookeeperRegistry registry = new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(server.getConnectString(), query));
        registries.add(registry);
        return registry;
    }

    private URL provider(int port, String query) {
        return URL.valueOf("weft://127.0.0.1:" + port + "/" + service + "?application=demo" + (query.isEmpty() ? "" : "&" + query));
    }

    private URL consumer(String query) {
        return URL.valueOf("consumer://127.0.0.1/" + service + "?application=app" + (query.isEmpty() ? "" : "&" + query));
    }

    @Test
    void registerThenSubscribe_deliversTheFullListOfEachCategory() {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        providers.register(provider(20880, "weight=200"));
        providers.register(provider(20881, ""));
        RecordingListener listener = new RecordingListener();

        consumers.subscribe(consumer("category=providers,configurators"), listener);

        Await.until("two providers and an empty configurators list",
                () -> List.of("127.0.0.1:20880", "127.0.0.1:20881").equals(listener.lastAddresses())
                        && listener.lastIsEmpty("configurators"), listener::toString);
        assertThat(listener.last("providers")).contains(provider(20880, "weight=200"), provider(20881, ""));
        URL empty = listener.last("configurators").get(0);
        assertThat(empty.getProtocol()).isEqualTo("empty");
        assertThat(empty.getParameter("category")).isEqualTo("configurators");
        assertThat(empty.getServiceInterface()).isEqualTo(service);
        assertThat(listener.overlapped()).isFalse();
    }

    @Test
    void register_writesDubbosLayout_underRootWeft_ephemeralByDefault() throws Exception {
        ZookeeperRegistry registry = registry();
        URL url = provider(20880, "");

        registry.register(url);

        String path = "/weft/" + service + "/providers/" + NodeNames.encode(url);
        Stat stat = operator.checkExists().forPath(path);
        assertThat(stat).isNotNull();
        assertThat(stat.getEphemeralOwner()).isEqualTo(registry.health().sessionId()).isNotZero();
        // Everything a consumer reads is in the name; the data only tells the registry its own nodes.
        assertThat(new String(operator.getData().forPath(path), java.nio.charset.StandardCharsets.US_ASCII))
                .matches("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");
        assertThat(operator.checkExists().forPath("/weft/" + service + "/providers").getEphemeralOwner())
                .as("category folders are persistent (not containers the server would delete when empty)").isZero();
    }

    @Test
    void consumerUrl_withCategoryConsumers_isRegisteredUnderConsumers_andSeenBySubscribersOfThatCategory() {
        ZookeeperRegistry registry = registry();
        URL self = consumer("category=consumers&check=false");
        RecordingListener admin = new RecordingListener();

        registry.register(self);
        registry.subscribe(consumer("category=consumers"), admin);

        Await.until("the consumer", () -> admin.last("consumers") != null && !admin.lastIsEmpty("consumers"),
                admin::toString);
        assertThat(admin.last("consumers")).containsExactly(self);
        assertThat(exists("/weft/" + service + "/consumers/" + NodeNames.encode(self))).isTrue();
    }

    @Test
    void rootDubbo_readsProvidersADubboRegistryWrote() throws Exception {
        String name = "dubbo%3A%2F%2F127.0.0.1%3A20880%2F" + service + "%3Fanyhost%3Dtrue%26application%3Ddemo-provider"
                + "%26interface%3D" + service + "%26methods%3DsayHello%26side%3Dprovider";
        operator.create().creatingParentsIfNeeded().forPath("/dubbo/" + service + "/providers/" + name);
        ZookeeperRegistry registry = registry("root=dubbo");

        List<URL> found = registry.lookup(consumer(""));

        assertThat(found).singleElement().satisfies(url -> {
            assertThat(url.getProtocol()).isEqualTo("dubbo");
            assertThat(url.getParameter("methods")).isEqualTo("sayHello");
        });
    }

    @Test
    void providerJoinsAndLeaves_subscriberGetsEachFullList_thenTheEmptyMarker() {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        RecordingListener listener = new RecordingListener();
        consumers.subscribe(consumer(""), listener);
        Await.until("empty providers", () -> listener.lastIsEmpty("providers"), listener::toString);

        providers.register(provider(20880, ""));
        Await.until("one provider", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()), listener::toString);
        providers.register(provider(20881, ""));
        Await.until("two providers", () -> listener.lastAddresses().size() == 2, listener::toString);
        providers.unregister(provider(20880, ""));
        Await.until("one left", () -> List.of("127.0.0.1:20881").equals(listener.lastAddresses()), listener::toString);
        providers.unregister(provider(20881, ""));

        Await.until("empty again", () -> listener.lastIsEmpty("providers"), listener::toString);
    }

    @Test
    void operatorsZkCliOverride_arrivesAsConfigurators_andDeletingItRestoresTheEmptyList() throws Exception {
        ZookeeperRegistry consumers = registry();
        RecordingListener listener = new RecordingListener();
        consumers.subscribe(consumer("category=providers,configurators"), listener);
        Await.until("empty configurators", () -> listener.lastIsEmpty("configurators"), listener::toString);
        // What the operator types in zkCli (docs/rpc-registry-zookeeper.md, "Operating with zkCli"), for this test's service.
        String node = "/weft/" + service + "/configurators/override%3A%2F%2F0.0.0.0%2F" + service
                + "%3Fcategory%3Dconfigurators%26dynamic%3Dfalse%26sayHello.mock%3Dforce%3Areturn+degraded";

        operator.create().forPath(node, new byte[0]);

        Await.until("the override", () -> !listener.lastIsEmpty("configurators"), listener::toString);
        assertThat(listener.last("configurators")).singleElement().satisfies(rule -> {
            assertThat(rule.getProtocol()).isEqualTo("override");
            assertThat(rule.getHost()).isEqualTo("0.0.0.0");
            assertThat(rule.getParameter("sayHello.mock")).isEqualTo("force:return degraded");
        });

        operator.delete().forPath(node);

        Await.until("configurators empty again", () -> listener.lastIsEmpty("configurators"), listener::toString);
    }

    @Test
    void manyQuickRegistrations_listsOnlyGrow_neverAnOlderListAfterANewerOne() {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        RecordingListener listener = new RecordingListener();
        consumers.subscribe(consumer(""), listener);

        IntStream.range(0, 40).forEach(i -> providers.register(provider(30000 + i, "")));

        Await.until("all 40", () -> listener.lastAddresses() != null && listener.lastAddresses().size() == 40,
                listener::toString);
        Set<String> before = new HashSet<>();
        for (List<URL> list : listener.lists("providers")) {
            Set<String> now = new HashSet<>();
            list.stream().filter(u -> !u.getProtocol().equals("empty")).forEach(u -> now.add(u.getAddress()));
            assertThat(now).containsAll(before);
            before = now;
        }
        assertThat(listener.overlapped()).isFalse();
    }

    @Test
    void eightThreadsRegisteringAndSubscribingAtOnce_everyListenerEndsWithEveryProvider() throws Exception {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        List<RecordingListener> listeners = new ArrayList<>();
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < 8; t++) {
            RecordingListener listener = new RecordingListener();
            listeners.add(listener);
            int base = 31000 + t * 10;
            threads.add(new Thread(() -> {
                consumers.subscribe(consumer("thread=" + base), listener);
                IntStream.range(0, 10).forEach(i -> providers.register(provider(base + i, "")));
            }));
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join(TimeUnit.SECONDS.toMillis(60));
        }

        for (RecordingListener listener : listeners) {
            Await.until("80 providers", () -> listener.lastAddresses() != null && listener.lastAddresses().size() == 80,
                    listener::toString);
            assertThat(listener.overlapped()).isFalse();
        }
        assertThat(operator.getChildren().forPath("/weft/" + service + "/providers")).hasSize(80);
    }

    @Test
    void providersJoiningAndLeavingAmongMany_eachListIsTheFolder_inNodeOrder_untouchedProvidersKeepTheirUrl()
            throws Exception {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        List<URL> registered = new ArrayList<>();
        for (int port = 21000; port < 21040; port++) {
            URL url = provider(port, "");
            providers.register(url);
            registered.add(url);
        }
        String folder = "/weft/" + service + "/providers/";
        operator.create().forPath(folder + "garbage-node");
        RecordingListener listener = new RecordingListener();
        consumers.subscribe(consumer(""), listener);
        Await.until("40 providers", () -> listener.lastAddresses() != null && listener.lastAddresses().size() == 40,
                listener::toString);
        assertThat(consumers.health().skippedNodeNames()).isEqualTo(1);

        Random random = new Random(14);
        for (int change = 0; change < 20; change++) {
            List<URL> before = listener.last("providers");
            if (change % 2 == 0) {
                URL joining = provider(22000 + change, "");
                providers.register(joining);
                registered.add(joining);
            } else {
                providers.unregister(registered.remove(random.nextInt(registered.size())));
            }
            // Node names differ first in the port (five digits each), so node order is port order.
            List<String> expected = registered.stream().sorted(Comparator.comparingInt(URL::getPort))
                    .map(URL::getAddress).toList();
            Await.until("change " + change, () -> expected.equals(
                    listener.last("providers").stream().map(URL::getAddress).toList()), listener::toString);
            List<URL> after = listener.last("providers");
            for (URL url : after) {
                before.stream().filter(url::equals).findFirst()
                        .ifPresent(same -> assertThat(url).as("untouched provider %s", url).isSameAs(same));
            }
        }
        assertThat(consumers.health().skippedNodeNames()).as("the bad node is reported once").isEqualTo(1);
        assertThat(listener.overlapped()).isFalse();
    }

    @Test
    void badNodeNames_areSkipped_otherProvidersKept_andCounted() throws Exception {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        providers.register(provider(20880, ""));
        String folder = "/weft/" + service + "/providers/";
        operator.create().forPath(folder + "garbage-node");
        operator.create().forPath(folder + "dubbo%3A%2F%2Fh%3A1%2Fs%3Fratio%3D100%25");
        RecordingListener listener = new RecordingListener();

        consumers.subscribe(consumer(""), listener);

        Await.until("the good provider", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()),
                listener::toString);
        assertThat(consumers.health().skippedNodeNames()).isEqualTo(2);
        assertThat(consumers.lookup(consumer(""))).containsExactly(provider(20880, ""));
    }

    @Test
    void hundredsOfBadNodeNames_giveOneLineNamingANodeAndTheCount_notOneLineEach() throws Exception {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        providers.register(provider(20880, ""));
        String folder = "/weft/" + service + "/providers/";
        for (int i = 0; i < 300; i++) {
            operator.create().forPath(folder + "lock-" + i);
        }
        RecordingListener listener = new RecordingListener();
        PrintStream stderr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            consumers.subscribe(consumer(""), listener);
            Await.until("the good provider", () -> List.of("127.0.0.1:20880").equals(listener.lastAddresses()),
                    listener::toString);
            consumers.lookup(consumer(""));
        } finally {
            System.setErr(stderr);
        }

        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines()
                .filter(line -> line.contains("Skipping")).toList();
        assertThat(lines).as("%s", lines).hasSizeBetween(1, 2)
                .allSatisfy(line -> assertThat(line).contains("300").contains(folder + "lock-"));
        assertThat(consumers.health().skippedNodeNames()).isEqualTo(300);
    }

    @Test
    void groupAndVersion_consumerKeepsOnlyMatchingProviders_rulesWithoutAGroupApplyToAll() throws Exception {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        providers.register(provider(20880, "group=blue&version=1.0"));
        providers.register(provider(20881, "group=green&version=1.0"));
        providers.register(provider(20882, "group=blue&version=2.0"));
        providers.register(provider(20883, ""));
        providers.register(URL.valueOf("override://0.0.0.0/" + service + "?category=configurators&dynamic=false&weight=5"));
        providers.register(URL.valueOf("override://0.0.0.0/" + service + "?category=configurators&dynamic=false&group=green&weight=7"));

        List<URL> blue = consumers.lookup(consumer("group=blue&version=1.0&category=providers,configurators"));
        List<URL> any = consumers.lookup(consumer("group=*&version=*"));
        List<URL> plain = consumers.lookup(consumer(""));

        assertThat(blue).extracting(u -> u.getAddress() + "/" + u.getParameter("weight"))
                .containsExactly("127.0.0.1:20880/null", "0.0.0.0/5");
        assertThat(any).hasSize(4);
        assertThat(plain).extracting(URL::getAddress).containsExactly("127.0.0.1:20883");
    }

    @Test
    void folderLargerThanJuteMaxbuffer_deliversNothing_andRaisingTheKeyDeliversIt() throws Exception {
        String padding = "x".repeat(400);
        for (int i = 0; i < 20; i++) {
            operator.create().creatingParentsIfNeeded().forPath("/weft/" + service + "/providers/"
                    + NodeNames.encode(provider(21000 + i, "pad=" + padding)));
        }
        ZookeeperRegistry small = registry("jute-maxbuffer=4096");
        ZookeeperRegistry raised = registry("jute-maxbuffer=65536");
        RecordingListener tooBig = new RecordingListener();
        RecordingListener fits = new RecordingListener();

        small.subscribe(consumer(""), tooBig);
        raised.subscribe(consumer(""), fits);

        Await.until("20 providers with the raised limit",
                () -> fits.lastAddresses() != null && fits.lastAddresses().size() == 20, fits::toString);
        Thread.sleep(1_000);
        assertThat(tooBig.count()).as("no list, not even an empty one, when the folder cannot be read").isZero();
        assertThat(small.health().sinceLastRead()).isEmpty();
    }

    @Test
    void dynamicFalse_registersAPersistentNode_thatOutlivesTheRegistry() throws Exception {
        ZookeeperRegistry registry = registry();
        URL rule = URL.valueOf("override://0.0.0.0/" + service + "?category=configurators&dynamic=false&timeout=300");
        URL provider = provider(20880, "");
        registry.register(rule);
        registry.register(provider);
        String rulePath = "/weft/" + service + "/configurators/" + NodeNames.encode(rule);
        String providerPath = "/weft/" + service + "/providers/" + NodeNames.encode(provider);
        assertThat(operator.checkExists().forPath(rulePath).getEphemeralOwner()).isZero();

        registry.close();

        assertThat(operator.checkExists().forPath(rulePath)).isNotNull();
        assertThat(operator.checkExists().forPath(providerPath)).isNull();
    }

    @Test
    void persistentRuleWrittenByAnEarlierRegistry_isDeletedByUnregister_fromAnotherRegistry() throws Exception {
        URL rule = URL.valueOf("override://0.0.0.0/" + service + "?category=configurators&dynamic=false&timeout=300");
        String rulePath = "/weft/" + service + "/configurators/" + NodeNames.encode(rule);
        ZookeeperRegistry monday = registry();
        monday.register(rule);
        Await.until("the rule written", () -> exists(rulePath));
        monday.close();
        ZookeeperRegistry tuesday = registry();
        RecordingListener listener = new RecordingListener();
        tuesday.subscribe(consumer("category=configurators"), listener);
        Await.until("the rule", () -> !listener.lastIsEmpty("configurators") && listener.count() > 0,
                listener::toString);

        tuesday.unregister(rule);

        assertThat(exists(rulePath)).isFalse();
        Await.until("configurators empty", () -> listener.lastIsEmpty("configurators"), listener::toString);
    }

    @Test
    void unregister_ofAnotherSessionsEphemeralNode_leavesItAlone() throws Exception {
        ZookeeperRegistry owner = registry();
        ZookeeperRegistry stranger = registry();
        URL url = provider(20880, "");
        owner.register(url);
        Await.until("registered", () -> exists("/weft/" + service + "/providers/" + NodeNames.encode(url)));

        stranger.unregister(url);

        Stat stat = operator.checkExists().forPath("/weft/" + service + "/providers/" + NodeNames.encode(url));
        assertThat(stat).isNotNull();
        assertThat(stat.getEphemeralOwner()).isEqualTo(owner.health().sessionId());
    }

    @Test
    void unsubscribe_stopsNotifications_otherSubscriptionsOfTheFolderGoOn() {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        RecordingListener stays = new RecordingListener();
        RecordingListener leaves = new RecordingListener();
        consumers.subscribe(consumer(""), stays);
        consumers.subscribe(consumer(""), leaves);
        Await.until("both notified", () -> stays.lastIsEmpty("providers") && leaves.lastIsEmpty("providers"));

        consumers.unsubscribe(consumer(""), leaves);
        int leftWith = leaves.count();
        providers.register(provider(20880, ""));

        Await.until("the staying listener sees the provider",
                () -> List.of("127.0.0.1:20880").equals(stays.lastAddresses()), stays::toString);
        assertThat(leaves.count()).isEqualTo(leftWith);
    }

    @Test
    void unregister_ofAnUnknownUrl_isIgnored_andRegisterIsIdempotent() throws Exception {
        ZookeeperRegistry registry = registry();
        registry.unregister(provider(20999, ""));
        registry.register(provider(20880, ""));
        registry.register(provider(20880, ""));

        assertThat(operator.getChildren().forPath("/weft/" + service + "/providers")).hasSize(1);
    }

    @Test
    void deletedByHand_theNodeComesBack() throws Exception {
        ZookeeperRegistry registry = registry();
        URL url = provider(20880, "");
        registry.register(url);
        String path = "/weft/" + service + "/providers/" + NodeNames.encode(url);

        operator.delete().forPath(path);

        Await.until("the node re-created", () -> exists(path));
    }

    @Test
    void serviceFolderDeletedByHand_registrationsComeBack_andSubscribersSeeThemAgain() throws Exception {
        ZookeeperRegistry providers = registry();
        ZookeeperRegistry consumers = registry();
        providers.register(provider(20880, ""));
        providers.register(provider(20881, ""));
        RecordingListener listener = new RecordingListener();
        consumers.subscribe(consumer("category=providers,configurators"), listener);
        Await.until("both", () -> listener.lastAddresses() != null && listener.lastAddresses().size() == 2,
                listener::toString);
        String rule = "/weft/" + service + "/configurators/" + NodeNames.encode(URL.valueOf(
                "override://0.0.0.0/" + service + "?category=configurators&dynamic=false&weight=5"));
        operator.create().forPath(rule);
        Await.until("the rule", () -> !listener.lastIsEmpty("configurators"), listener::toString);

        operator.delete().deletingChildrenIfNeeded().forPath("/weft/" + service);

        Await.until("both registered again", () -> exists("/weft/" + service + "/providers/"
                + NodeNames.encode(provider(20880, ""))) && exists("/weft/" + service + "/providers/"
                + NodeNames.encode(provider(20881, ""))));
        Await.until("the subscriber sees both and no rule",
                () -> listener.lastAddresses().size() == 2 && listener.lastIsEmpty("configurators"),
                listener::toString);
        operator.create().creatingParentsIfNeeded().forPath(rule);
        Await.until("a rule written afterwards", () -> !listener.lastIsEmpty("configurators"), listener::toString);
        assertThat(listener.overlapped()).isFalse();
    }

    private static boolean exists(String path) {
        try {
            return operator.checkExists().forPath(path) != null;
        } catch (Exception e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void health_reportsConnection_session_andTimeSinceTheLastRead() {
        AtomicLong nanos = new AtomicLong(1_000_000_000L);
        Ticker ticker = new Ticker() {
            @Override
            public long read() {
                return nanos.get();
            }
        };
        ZookeeperRegistry registry = new ZookeeperRegistry(
                EmbeddedZooKeeper.registryUrl(server.getConnectString(), ""), ticker);
        registries.add(registry);
        assertThat(registry.health().sinceLastRead()).isEmpty();
        RecordingListener listener = new RecordingListener();
        registry.subscribe(consumer(""), listener);
        Await.until("first list", () -> listener.count() > 0);

        nanos.addAndGet(TimeUnit.SECONDS.toNanos(7));

        ZookeeperHealth health = registry.health();
        assertThat(health.state()).isEqualTo(ZookeeperHealth.State.CONNECTED);
        assertThat(health.sessionId()).isNotZero();
        assertThat(health.sinceLastRead()).contains(Duration.ofSeconds(7));
        assertThat(registry.isAvailable()).isTrue();
    }

    @Test
    void close_stopsEverything_andLaterCallsFailClearly() {
        ZookeeperRegistry registry = registry();
        registry.close();
        registry.close();

        assertThat(registry.health().state()).isEqualTo(ZookeeperHealth.State.CLOSED);
        assertThat(registry.isAvailable()).isFalse();
        assertThatIllegalStateException().isThrownBy(() -> registry.register(provider(20880, "")))
                .withMessageStartingWith("registry closed: zookeeper://127.0.0.1:");
    }

    @Test
    void badKeys_failAtOnce_namingTheKeyAndTheRule() {
        String connect = server.getConnectString();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(connect, "root=a/b")))
                .withMessageStartingWith("root: a/b (expected: one node name");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(connect, "jute-maxbuffer=100")))
                .withMessageStartingWith("jute-maxbuffer: 100 (expected: >= 1024 bytes)");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(connect, "backup=nohost")))
                .withMessageStartingWith("backup: nohost (expected: host:port");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(connect, "backup=127.0.0.1:99999")))
                .withMessageStartingWith("backup: 127.0.0.1:99999 (expected: host:port with a port 1-65535");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(connect, "backup=127.0.0.1:0")))
                .withMessageStartingWith("backup: 127.0.0.1:0 (expected: host:port with a port 1-65535");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> new ZookeeperRegistry(EmbeddedZooKeeper.registryUrl(connect, "root=zookeeper")))
                .withMessageStartingWith("root: zookeeper (expected: one node name")
                .withMessageContaining("other than zookeeper");
        ZookeeperRegistry registry = registry();
        assertThatIllegalArgumentException()
                .isThrownBy(() -> registry.subscribe(consumer("category=providers,routes"), new RecordingListener()))
                .withMessageStartingWith("category: routes (expected: one of [providers, consumers, configurators, routers])");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> registry.register(URL.valueOf("weft://127.0.0.1:1?application=x")))
                .withMessageStartingWith("service interface: null (expected:");
    }

    @Test
    void factory_isTheDefaultExtension_namedZookeeper() {
        RegistryFactory factory = ExtensionLoader.getExtensionLoader(RegistryFactory.class).getDefaultExtension();
        assertThat(factory).isInstanceOf(ZookeeperRegistryFactory.class);

        try (Registry registry = factory.getRegistry(EmbeddedZooKeeper.registryUrl(server.getConnectString(), ""))) {
            assertThat(registry).isInstanceOf(ZookeeperRegistry.class);
            assertThat(registry.lookup(consumer(""))).isEmpty();
        }
    }
}
