package dev.weft.rpc.examples.spring;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.examples.spring.api.GreetingService;
import dev.weft.rpc.examples.spring.consumer.ConsumerApplication;
import dev.weft.rpc.examples.spring.provider.ProviderApplication;
import dev.weft.rpc.registry.Registry;
import dev.weft.rpc.registry.RegistryFactory;
import dev.weft.rpc.spi.ExtensionDirector;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The two example apps on a real embedded ZooKeeper and real sockets on 127.0.0.1: the consumer app
 * (this test's context, random HTTP port) calls the provider apps started beside it.
 */
@SpringBootTest(classes = ConsumerApplication.class, webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@ActiveProfiles(ConsumerApplication.PROFILE)
class ProviderAndConsumerAppsTest {

    private static final Duration WAIT = Duration.ofSeconds(20);
    private static TestingServer zooKeeper;
    private static final List<ConfigurableApplicationContext> providers = new ArrayList<>();
    private static final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    @Value("${local.server.port}")
    int port;

    @org.springframework.beans.factory.annotation.Autowired
    Map<String, HealthIndicator> healthIndicators;

    @BeforeAll
    static void startZooKeeperAndProvider() throws Exception {
        zooKeeper = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, 200, -1,
                Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true);
        providers.add(startProvider());
    }

    @DynamicPropertySource
    static void registry(DynamicPropertyRegistry properties) {
        properties.add("weft.registry", ProviderAndConsumerAppsTest::registryUrl);
    }

    @AfterAll
    static void stopProvidersAndZooKeeper() throws IOException {
        providers.forEach(ConfigurableApplicationContext::close);
        zooKeeper.close();
    }

    private static String registryUrl() {
        return "zookeeper://" + zooKeeper.getConnectString() + "?session=3000";
    }

    private static ConfigurableApplicationContext startProvider() {
        return ProviderApplication.start("--server.port=0", "--weft.provider.url=weft://127.0.0.1:0",
                "--weft.registry=" + registryUrl(), "--example.zookeeper.embedded=false", "--weft.shutdown-timeout=5s");
    }

    @Test
    void endpoint_answersThroughTheProvider_andHealthIsUp() throws Exception {
        assertThat(get("/greet?name=ada")).isEqualTo("200 hello ada");
        String health = get("/actuator/health/weft");
        assertThat(health).startsWith("200 ").contains("\"status\":\"UP\"").contains(GreetingService.class.getName());
    }

    @Test
    void overrideRuleInZooKeeper_forcesAMock_andRemovingItRestoresTheProvider() throws Exception {
        URL rule = URL.valueOf("override://0.0.0.0/" + GreetingService.class.getName()
                + "?category=configurators&dynamic=false&greet.mock=force:return+mocked");
        try (ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader());
             Registry registry = director.getExtensionLoader(RegistryFactory.class).getAdaptiveExtension()
                     .getRegistry(URL.valueOf(registryUrl()))) {
            registry.register(rule);
            assertThat(await(() -> get("/greet?name=ada"), "200 mocked")).isEqualTo("200 mocked");
            registry.unregister(rule);
            assertThat(await(() -> get("/greet?name=ada"), "200 hello ada")).isEqualTo("200 hello ada");
        }
    }

    @Test
    void rollingRestartOfTheProviders_underLoad_failsNoCall() throws Exception {
        providers.add(startProvider());
        awaitAvailableProviders(2);
        AtomicBoolean stop = new AtomicBoolean();
        AtomicInteger calls = new AtomicInteger();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        int callers = 4;
        int maxCalls = 20_000;
        ExecutorService load = Executors.newFixedThreadPool(callers);
        try {
            List<Future<?>> running = new ArrayList<>();
            for (int i = 0; i < callers; i++) {
                running.add(load.submit(() -> {
                    while (!stop.get() && calls.incrementAndGet() <= maxCalls) {
                        try {
                            String answer = get("/greet?name=ada");
                            if (!answer.equals("200 hello ada")) {
                                failures.add(answer);
                            }
                        } catch (IOException | InterruptedException e) {
                            failures.add(e.toString());
                        }
                    }
                    return null;
                }));
            }
            for (int i = 0; i < 2; i++) {
                int before = calls.get();
                providers.remove(0).close();
                providers.add(startProvider());
                awaitAvailableProviders(2);
                awaitCalls(calls, before + 50);
            }
            stop.set(true);
            for (Future<?> caller : running) {
                caller.get(30, TimeUnit.SECONDS);
            }
        } finally {
            stop.set(true);
            load.shutdownNow();
        }
        assertThat(failures).isEmpty();
        assertThat(calls.get()).isGreaterThan(100);
    }

    private void awaitAvailableProviders(int count) throws InterruptedException {
        HealthIndicator weft = healthIndicators.get("weftHealthIndicator");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Health health = weft.health(true);
            if (health.getDetails().get("references") instanceof Map<?, ?> references
                    && references.get(GreetingService.class.getName()) instanceof Map<?, ?> reference
                    && Long.valueOf(count).equals(reference.get("available"))) {
                return;
            }
            Thread.sleep(20);
        }
        throw new AssertionError("the consumer did not see " + count + " available providers within " + WAIT
                + ": " + weft.health(true));
    }

    private static void awaitCalls(AtomicInteger calls, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (calls.get() < atLeast && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    private String get(String path) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + port + path))
                .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString());
        return response.statusCode() + " " + response.body();
    }

    private interface Call {
        String get() throws Exception;
    }

    private static String await(Call call, String expected) throws Exception {
        long deadline = System.nanoTime() + WAIT.toNanos();
        String answer = call.get();
        while (!answer.equals(expected) && System.nanoTime() < deadline) {
            Thread.sleep(20);
            answer = call.get();
        }
        return answer;
    }
}
