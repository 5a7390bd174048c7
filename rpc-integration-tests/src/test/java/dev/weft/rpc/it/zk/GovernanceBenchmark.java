package dev.weft.rpc.it.zk;

import dev.weft.rpc.bootstrap.Weft;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.RegistryDirectory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryNTimes;
import org.apache.curator.test.TestingServer;

import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Issue 14's bars on the real stack, run by hand (not a CI test): how long a provider joining or
 * leaving and an override added or removed take to reach a consumer's {@link RegistryDirectory}
 * (a {@link DirectoryProbe}'s, built as {@code Weft.refer} builds one), as p50/p99/max over
 * {@code n} samples; then 100 override flips under 2,000 calls/s against two
 * providers through a {@code Weft} consumer, counting failed calls. Everything listens on 127.0.0.1.
 *
 * <pre>
 * mvn -pl rpc-integration-tests test-compile dependency:build-classpath -Dmdep.includeScope=test -Dmdep.outputFile=cp.txt
 * java -cp rpc-integration-tests/target/test-classes:$(cat rpc-integration-tests/cp.txt) \
 *     dev.weft.rpc.it.zk.GovernanceBenchmark [samples=200] [flips=100] [calls/s=2000]
 * </pre>
 * The load runs on 32 threads so that the rate, not the call latency, bounds it; forced-mock
 * answers cost no network call, so the real calls are counted apart.
 */
public final class GovernanceBenchmark {

    private static final String SERVICE = GreetingService.class.getName();
    private static final Duration WAIT = Duration.ofSeconds(10);

    private GovernanceBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int samples = args.length > 0 ? Integer.parseInt(args[0]) : 200;
        int flips = args.length > 1 ? Integer.parseInt(args[1]) : 100;
        int rate = args.length > 2 ? Integer.parseInt(args[2]) : 2_000;
        try (TestingServer zookeeper = EmbeddedZooKeeper.start()) {
            String registryUrl = EmbeddedZooKeeper.registryUrl(zookeeper);
            try (Weft p1 = Weft.builder().registry(registryUrl).application("provider-p1").build();
                 Weft p2 = Weft.builder().registry(registryUrl).application("provider-p2").build();
                 Weft p3 = Weft.builder().application("provider-p3").build();
                 DirectoryProbe probe = DirectoryProbe.open(registryUrl);
                 Weft consumer = Weft.builder().registry(registryUrl).application("shop").build()) {
                CuratorFramework operator = CuratorFrameworkFactory.newClient(zookeeper.getConnectString(), 5_000,
                        2_000, new RetryNTimes(3, 100));
                operator.start();
                operator.blockUntilConnected();
                try {
                    p1.export(GreetingService.class, new NamedGreeter("p1"), "weft://127.0.0.1:0");
                    p2.export(GreetingService.class, new NamedGreeter("p2"), "weft://127.0.0.1:0");
                    // p3 has no registry: its URL is registered and unregistered by hand to time joins and leaves
                    URL third = p3.export(GreetingService.class, new NamedGreeter("p3"), "weft://127.0.0.1:0")
                            .getInvoker().getUrl();
                    RegistryDirectory<GreetingService> directory = probe.directory();
                    await(() -> directory.getInvokers().size() == 2);
                    GreetingService service = consumer.refer(GreetingService.class, "cluster=failover&retries=2&timeout=2000");
                    for (int i = 0; i < 1_000; i++) {
                        service.sayHello("warm-up");
                    }
                    List<Long> joins = new ArrayList<>();
                    List<Long> leaves = new ArrayList<>();
                    for (int i = 0; i < samples; i++) {
                        long start = System.nanoTime();
                        probe.registry().register(third);
                        await(() -> directory.getInvokers().size() == 3);
                        joins.add(System.nanoTime() - start);
                        start = System.nanoTime();
                        probe.registry().unregister(third);
                        await(() -> directory.getInvokers().size() == 2);
                        leaves.add(System.nanoTime() - start);
                    }
                    List<Long> adds = new ArrayList<>();
                    List<Long> removes = new ArrayList<>();
                    String node = "/weft/" + SERVICE + "/configurators/" + URLEncoder.encode("override://0.0.0.0/"
                            + SERVICE + "?category=configurators&dynamic=false&timeout=1500", StandardCharsets.UTF_8);
                    for (int i = 0; i < samples; i++) {
                        long start = System.nanoTime();
                        operator.create().creatingParentsIfNeeded().forPath(node, new byte[0]);
                        await(() -> "1500".equals(directory.getUrl().getParameter("timeout")));
                        adds.add(System.nanoTime() - start);
                        start = System.nanoTime();
                        operator.delete().forPath(node);
                        await(() -> !"1500".equals(directory.getUrl().getParameter("timeout")));
                        removes.add(System.nanoTime() - start);
                    }
                    System.out.println("| scenario | n | p50 | p99 | max |");
                    System.out.println("|---|---|---|---|---|");
                    print("provider joins", joins);
                    print("provider leaves", leaves);
                    print("override added", adds);
                    print("override removed", removes);
                    flips(operator, directory, service, flips, rate);
                } finally {
                    operator.close();
                }
            }
        }
    }

    private static void flips(CuratorFramework operator, RegistryDirectory<GreetingService> directory,
                              GreetingService service, int flips, int rate) throws Exception {
        String[] payloads = {"weight=300", "timeout=1500", "loadbalance=roundrobin", "loadbalance=leastactive",
                "sayHello.mock=force:return degraded"};
        try (CallLoad load = CallLoad.start(() -> service.sayHello("ada"), GovernanceBenchmark::kind, 32, rate,
                Duration.ofMinutes(5))) {
            Thread.sleep(1_000);
            long start = System.nanoTime();
            long callsAtStart = load.calls();
            long realAtStart = load.count("real");
            Map<String, Long> flipNanos = new TreeMap<>();
            for (int i = 0; i < flips; i++) {
                String payload = payloads[i % payloads.length];
                String node = "/weft/" + SERVICE + "/configurators/" + URLEncoder.encode("override://0.0.0.0/"
                        + SERVICE + "?category=configurators&dynamic=false&" + payload, StandardCharsets.UTF_8);
                String key = payload.substring(0, payload.indexOf('='));
                String value = payload.substring(payload.indexOf('=') + 1);
                BooleanSupplier inEffect = key.equals("weight")
                        ? () -> directory.getInvokers().stream().allMatch(i2 -> value.equals(i2.getUrl().getParameter(key)))
                        : () -> value.equals(directory.getUrl().getParameter(key));
                long flipStart = System.nanoTime();
                operator.create().forPath(node, new byte[0]);
                await(inEffect);
                operator.delete().forPath(node);
                await(() -> !inEffect.getAsBoolean());
                flipNanos.merge(key, System.nanoTime() - flipStart, Long::sum);
            }
            double seconds = (System.nanoTime() - start) / 1e9;
            long calls = load.calls() - callsAtStart;
            long real = load.count("real") - realAtStart;
            load.stop(Duration.ofSeconds(30));
            System.out.printf(Locale.ROOT, "%d override flips in %.1f s at %d calls/s asked: %d calls (%.0f/s), "
                            + "%d real (%.0f/s over the whole run), %d failed, %d degraded; first failures: %s%n",
                    flips, seconds, rate, calls, calls / seconds, real, real / seconds, load.failures(),
                    load.count("degraded"), load.firstFailures());
            flipNanos.forEach((key, nanos) -> System.out.printf(Locale.ROOT, "  %s flips: %.1f ms each (add and remove)%n",
                    key, nanos / 1e6 / (flips / payloads.length)));
        }
    }

    private static String kind(String answer) {
        if (answer.equals("degraded")) {
            return "degraded";
        }
        if (answer.matches("p[12]:hello ada")) {
            return "real";
        }
        throw new AssertionError("unexpected answer: " + answer);
    }

    private static void await(BooleanSupplier condition) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("not within " + WAIT);
            }
            LockSupport.parkNanos(200_000);
        }
    }

    private static void print(String scenario, List<Long> nanos) {
        List<Long> sorted = new ArrayList<>(nanos);
        Collections.sort(sorted);
        System.out.printf(Locale.ROOT, "| %s | %d | %.1f ms | %.1f ms | %.1f ms |%n", scenario, sorted.size(),
                millis(sorted, 0.50), millis(sorted, 0.99), sorted.get(sorted.size() - 1) / 1e6);
    }

    private static double millis(List<Long> sorted, double quantile) {
        int index = (int) Math.ceil(quantile * sorted.size()) - 1;
        return sorted.get(Math.max(0, index)) / 1e6;
    }
}
