package dev.weft.rpc.bootstrap;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URLDecoder;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Lifecycle of a {@link Weft} with a real embedded ZooKeeper: what it leaves in the registry, and faults. */
class WeftRegistryLifecycleTest {

    private TestingServer zookeeper;
    private String registry;
    private CuratorFramework operator;

    @BeforeEach
    void startZooKeeper() throws Exception {
        zookeeper = new TestingServer(spec(), true);
        registry = registryUrl(zookeeper.getPort());
        operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), 5000, 2000, new RetryNTimes(3, 100));
        operator.start();
    }

    @AfterEach
    void stopZooKeeper() throws Exception {
        operator.close();
        zookeeper.close();
    }

    @Test
    void exporterUnexport_removesTheProvidersRegistration() throws Exception {
        try (Weft provider = Weft.builder().registry(registry).build()) {
            Exporter<Greeter> exporter = provider.export(Greeter.class, new NamedGreeter("p"), "weft://127.0.0.1:0");
            assertThat(children("providers")).hasSize(1);

            exporter.unexport();

            assertThat(children("providers")).as("provider nodes after unexport()").isEmpty();
        }
    }

    @Test
    void exporterUnexport_whileZooKeeperIsBriefHidden_removesTheRegistrationOnceItIsBack() throws Exception {
        try (Weft provider = Weft.builder().registry(registry).build()) {
            Exporter<Greeter> exporter = provider.export(Greeter.class, new NamedGreeter("p"), "weft://127.0.0.1:0");
            int port = exporter.getInvoker().getUrl().getPort();
            assertThat(children("providers")).hasSize(1);
            zookeeper.stop();

            exporter.unexport();
            zookeeper.restart();

            assertThat(eventually(() -> childrenQuietly("providers").isEmpty()))
                    .as("provider node of port %s once ZooKeeper is back within the session: %s", port,
                            childrenQuietly("providers"))
                    .isTrue();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"category=configurators", "category=consumers", "category=routers"})
    void export_withACategoryOtherThanProviders_isRejected_andNothingIsRegistered(String parameter)
            throws Exception {
        try (Weft provider = Weft.builder().registry(registry).build()) {
            assertThatThrownBy(() -> provider.export(Greeter.class, new NamedGreeter("p"), "weft://127.0.0.1:0?" + parameter))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("export " + Greeter.class.getName())
                    .hasMessageContaining(parameter);
            assertThat(children("providers")).isEmpty();
            assertThat(children("consumers")).isEmpty();
            assertThat(children("configurators")).isEmpty();
        }
    }

    @Test
    void reexport_onTheSamePort_afterUnexport_isRegisteredOnce_andCalled() throws Exception {
        try (Weft provider = Weft.builder().registry(registry).build();
             Weft consumer = Weft.builder().registry(registry).build()) {
            Exporter<Greeter> first = provider.export(Greeter.class, new NamedGreeter("first"), "weft://127.0.0.1:0");
            int port = first.getInvoker().getUrl().getPort();
            first.unexport();
            provider.export(Greeter.class, new NamedGreeter("again"), "weft://127.0.0.1:" + port);

            assertThat(children("providers")).hasSize(1);
            Greeter greeter = consumer.refer(Greeter.class, "timeout=3000");
            assertThat(greeter.greet("ada")).isEqualTo("again:ada");
        }
    }

    @Test
    void refer_thatFailsItsCheck_leavesNoConsumerNodeBehind() throws Exception {
        try (Weft consumer = Weft.builder().registry(registry).build()) {
            for (int attempt = 0; attempt < 3; attempt++) {
                assertThatThrownBy(() -> consumer.refer(Greeter.class, "timeout=200"))
                        .isInstanceOf(IllegalStateException.class);
            }
            assertThat(children("consumers")).as("consumer nodes after three failed refers").isEmpty();

            consumer.refer(Greeter.class, "check=false");
            assertThat(children("consumers")).as("consumer nodes after one successful refer").hasSize(1);
        }
    }

    @Test
    void refer_identicalToALiveOne_sharesIt_andAReferFailingItsCheck_leavesTheLiveNodeAlone() throws Exception {
        Weft provider = Weft.builder().registry(registry).build();
        try (Weft consumer = Weft.builder().registry(registry).build()) {
            provider.export(Greeter.class, new NamedGreeter("p"), "weft://127.0.0.1:0");
            Greeter first = consumer.refer(Greeter.class, "timeout=300");
            assertThat(first.greet("ada")).isEqualTo("p:ada");
            provider.close();
            assertThat(eventually(() -> childrenQuietly("providers").isEmpty())).isTrue();

            // Identical: the live reference is shared (its check was made when it was created).
            assertThat(consumer.refer(Greeter.class, "timeout=300")).isSameAs(first);
            assertThatThrownBy(() -> consumer.refer(Greeter.class, "timeout=301"))
                    .isInstanceOf(IllegalStateException.class);

            assertThat(children("consumers")).as("the first refer's node only: a failed refer registers none").hasSize(1);
        } finally {
            provider.close();
        }
    }

    @Test
    void export_onPortZero_registersTheBoundPort() throws Exception {
        try (Weft provider = Weft.builder().registry(registry).build()) {
            int bound = provider.export(Greeter.class, new NamedGreeter("p"), "weft://127.0.0.1:0").getInvoker().getUrl().getPort();

            List<String> nodes = children("providers");
            assertThat(nodes).hasSize(1);
            URL registered = URL.valueOf(URLDecoder.decode(nodes.get(0), StandardCharsets.UTF_8));
            assertThat(bound).isPositive();
            assertThat(registered.getPort()).isEqualTo(bound);
            assertThat(registered.getHost()).isEqualTo("127.0.0.1");
        }
    }

    @Test
    void export_whileZooKeeperIsDown_registersOnceItIsBack_andAConsumerThenCallsIt() throws Exception {
        TestingServer later = new TestingServer(spec(), false);
        try (later;
             Weft provider = Weft.builder().registry(registryUrl(later.getPort())).build()) {
            provider.export(Greeter.class, new NamedGreeter("p"), "weft://127.0.0.1:0");

            later.start();
            try (Weft consumer = Weft.builder().registry(registryUrl(later.getPort())).build()) {
                Greeter greeter = consumer.refer(Greeter.class, "timeout=8000");
                assertThat(greeter.greet("ada")).isEqualTo("p:ada");
            }
        }
    }

    @Test
    void providerClose_underLoad_consumerInAnotherWeftSeesNoFailedCall() throws Exception {
        Weft leaving = Weft.builder().registry(registry).application("leaving").build();
        try (Weft staying = Weft.builder().registry(registry).application("staying").build();
             Weft consumer = Weft.builder().registry(registry).application("shop").build()) {
            leaving.export(Greeter.class, new NamedGreeter("leaving"), "weft://127.0.0.1:0");
            staying.export(Greeter.class, new NamedGreeter("staying"), "weft://127.0.0.1:0");
            Greeter greeter = consumer.refer(Greeter.class, "timeout=3000&loadbalance=roundrobin");
            assertThat(eventually(() -> answers(greeter, 20).size() == 2)).as("both providers answering").isTrue();

            AtomicBoolean stop = new AtomicBoolean();
            AtomicInteger calls = new AtomicInteger();
            AtomicReference<Throwable> firstFailure = new AtomicReference<>();
            AtomicInteger failures = new AtomicInteger();
            ExecutorService pool = Executors.newFixedThreadPool(4);
            List<Future<?>> loops = new ArrayList<>();
            for (int i = 0; i < 4; i++) {
                loops.add(pool.submit(() -> {
                    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
                    for (int n = 0; n < 5_000 && !stop.get() && System.nanoTime() < deadline; n++) {
                        try {
                            greeter.greet("ada");
                            calls.incrementAndGet();
                        } catch (RuntimeException e) {
                            failures.incrementAndGet();
                            firstFailure.compareAndSet(null, e);
                        }
                    }
                }));
            }
            try {
                assertThat(eventually(() -> calls.get() >= 200)).isTrue();
                leaving.close();
                int atClose = calls.get();
                assertThat(eventually(() -> calls.get() >= atClose + 400)).as("calls after the close").isTrue();
            } finally {
                stop.set(true);
                for (Future<?> loop : loops) {
                    loop.get(20, TimeUnit.SECONDS);
                }
                pool.shutdown();
                leaving.close();
            }
            assertThat(failures.get()).as("failed calls (first: %s)", firstFailure.get()).isZero();
            assertThat(answers(greeter, 10)).containsExactly("staying:ada");
        }
    }

    @Test
    void close_whileZooKeeperIsDown_doesNotWaitATimeoutPerService() throws Exception {
        Weft weft = Weft.builder().registry(registry).build();
        for (String group : List.of("a", "b", "c", "d")) {
            weft.export(Greeter.class, new NamedGreeter(group), "weft://127.0.0.1:0?group=" + group);
            weft.refer(Greeter.class, "check=false&group=" + group);
        }
        zookeeper.stop();

        long started = System.nanoTime();
        weft.close();
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);

        assertThat(elapsedMillis).as("close with 8 registrations, ZooKeeper down, timeout=2000 (one wait each: 16 s)")
                .isLessThan(10_000);
    }

    @Test
    void manyThreads_exportingAndReferringThroughTheRegistry_onOneWeft_eachFindsItsOwnService() throws Exception {
        int threads = 8;
        try (Weft weft = Weft.builder().registry(registry).build()) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            java.util.concurrent.CountDownLatch start = new java.util.concurrent.CountDownLatch(1);
            try {
                List<Future<String>> answers = new ArrayList<>();
                for (int i = 0; i < threads; i++) {
                    String group = "g" + i;
                    answers.add(pool.submit(() -> {
                        start.await();
                        weft.export(Greeter.class, new NamedGreeter(group), "weft://127.0.0.1:0?group=" + group);
                        return weft.refer(Greeter.class, "group=" + group + "&timeout=5000").greet("ada");
                    }));
                }
                start.countDown();
                Set<String> seen = new java.util.HashSet<>();
                for (Future<String> answer : answers) {
                    seen.add(answer.get(60, TimeUnit.SECONDS));
                }
                assertThat(seen).hasSize(threads).allMatch(answer -> answer.matches("g[0-7]:ada"));
            } finally {
                pool.shutdown();
                assertThat(pool.awaitTermination(10, TimeUnit.SECONDS)).isTrue();
            }
            assertThat(children("providers")).hasSize(threads);
            assertThat(children("consumers")).hasSize(threads);
        }
        assertThat(children("providers")).isEmpty();
        assertThat(children("consumers")).isEmpty();
    }

    @Test
    void close_leavesNoZooKeeperSessionOrThreadBehind() throws Exception {
        Set<String> before = threadNames();
        long sessionsBefore = sessions();
        try (Weft weft = Weft.builder().registry(registry).build()) {
            weft.export(Greeter.class, new NamedGreeter("p"), "weft://127.0.0.1:0");
            assertThat(weft.refer(Greeter.class, "timeout=3000").greet("ada")).isEqualTo("p:ada");
            assertThat(sessions()).as("connections while open, the mntr probe included").isEqualTo(sessionsBefore + 1);
        }
        assertThat(eventually(() -> sessions() == sessionsBefore)).as("ZooKeeper sessions back to the operator's").isTrue();
        assertThat(eventually(() -> before.containsAll(threadNames())))
                .as("threads left: %s", threadNames().stream().filter(n -> !before.contains(n)).toList()).isTrue();
        assertThat(children("providers")).isEmpty();
        assertThat(children("consumers")).isEmpty();
    }

    /** ZooKeeper's count of open client connections, from its {@code mntr} command. */
    private long sessions() {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), zookeeper.getPort())) {
            socket.getOutputStream().write("mntr".getBytes(StandardCharsets.US_ASCII));
            String report = new String(socket.getInputStream().readAllBytes(), StandardCharsets.US_ASCII);
            return report.lines().filter(line -> line.startsWith("zk_num_alive_connections"))
                    .mapToLong(line -> Long.parseLong(line.split("\\s+")[1])).findFirst()
                    .orElseThrow(() -> new IllegalStateException("mntr: " + report));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private List<String> childrenQuietly(String category) {
        try {
            return children(category);
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private List<String> children(String category) throws Exception {
        String folder = "/weft/" + URLEncoder.encode(Greeter.class.getName(), StandardCharsets.UTF_8) + "/" + category;
        return operator.checkExists().forPath(folder) == null ? List.of() : operator.getChildren().forPath(folder);
    }

    private static Set<String> threadNames() {
        return Thread.getAllStackTraces().keySet().stream().filter(Thread::isAlive).map(Thread::getName)
                // the embedded server's own workers come and go with its connections
                .filter(name -> !name.startsWith("ForkJoinPool") && !name.startsWith("pool-") && !name.startsWith("NIOWorkerThread"))
                .collect(Collectors.toSet());
    }

    private static Set<String> answers(Greeter greeter, int calls) {
        Set<String> seen = new java.util.HashSet<>();
        for (int i = 0; i < calls; i++) {
            seen.add(greeter.greet("ada"));
        }
        return seen;
    }

    /** Polls until {@code done} holds, for at most 10 s (two busy cores). */
    private static boolean eventually(BooleanSupplier done) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (done.getAsBoolean()) {
                return true;
            }
            Thread.sleep(20);
        }
        return done.getAsBoolean();
    }

    private static InstanceSpec spec() {
        return new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1, Map.of("clientPortAddress", "127.0.0.1", "4lw.commands.whitelist", "mntr"), "127.0.0.1");
    }

    private static String registryUrl(int port) {
        return "zookeeper://127.0.0.1:" + port + "?session=5000&timeout=2000";
    }
}
