package dev.weft.rpc.registry.zookeeper;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.registry.NotifyListener;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.TestingServer;
import org.apache.zookeeper.CreateMode;

import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * Run by hand (not by surefire): change propagation through a real embedded ZooKeeper, and a
 * large providers folder. Prints figures; asserts nothing.
 *
 * <pre>
 * mvn -o -q -pl rpc-registry-zookeeper test-compile dependency:build-classpath -Dmdep.outputFile=target/cp.txt
 * java -cp rpc-registry-zookeeper/target/classes:rpc-registry-zookeeper/target/test-classes:$(cat rpc-registry-zookeeper/target/cp.txt) \
 *     dev.weft.rpc.registry.zookeeper.ZookeeperRegistryBenchmark [propagation] [large] [many]
 * </pre>
 */
public final class ZookeeperRegistryBenchmark {

    private static final String SERVICE = "com.example.DemoService";
    private static final int FLIPS = 200;

    private ZookeeperRegistryBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        try (TestingServer server = EmbeddedZooKeeper.server();
                CuratorFramework operator = EmbeddedZooKeeper.operator(server.getConnectString())) {
            String connect = server.getConnectString();
            List<String> parts = args.length == 0 ? List.of("propagation", "large", "many") : List.of(args);
            if (parts.contains("propagation")) {
                propagation(connect, operator);
            }
            if (parts.contains("large")) {
                largeFolder(connect, operator, 2_000, 400, "");
                largeFolder(connect, operator, 2_000, 600, "");
                largeFolder(connect, operator, 2_000, 600, "jute-maxbuffer=4194304");
            }
            if (parts.contains("many")) {
                manyServices(connect, operator, 200, 100, 400);
            }
        }
    }

    /** Latest list seen, with the time it arrived. */
    private static final class Latest implements NotifyListener {
        private volatile List<URL> urls = List.of();
        private volatile long at;

        @Override
        public void notify(List<URL> list) {
            at = System.nanoTime();
            urls = list;
        }

        long awaitMatch(Predicate<List<URL>> condition, long timeoutMs) throws InterruptedException {
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
            while (!condition.test(urls)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("no matching list within " + timeoutMs + " ms; last " + urls.size());
                }
                Thread.onSpinWait();
                Thread.sleep(0, 200_000);
            }
            return at;
        }
    }

    private static void propagation(String connect, CuratorFramework operator) throws Exception {
        URL registryUrl = EmbeddedZooKeeper.registryUrl(connect, "session=30000");
        try (ZookeeperRegistry providers = new ZookeeperRegistry(registryUrl);
                ZookeeperRegistry consumers = new ZookeeperRegistry(registryUrl)) {
            providers.register(URL.valueOf("weft://127.0.0.1:20880/" + SERVICE));
            Latest providerList = new Latest();
            Latest rules = new Latest();
            consumers.subscribe(URL.valueOf("consumer://127.0.0.1/" + SERVICE), providerList);
            consumers.subscribe(URL.valueOf("consumer://127.0.0.1/" + SERVICE + "?category=configurators"), rules);
            providerList.awaitMatch(l -> l.size() == 1 && !l.get(0).getProtocol().equals("empty"), 10_000);
            rules.awaitMatch(l -> l.size() == 1 && l.get(0).getProtocol().equals("empty"), 10_000);

            long[] join = new long[FLIPS];
            long[] leave = new long[FLIPS];
            URL joining = URL.valueOf("weft://127.0.0.1:20881/" + SERVICE + "?weight=100");
            for (int i = 0; i < FLIPS; i++) {
                long start = System.nanoTime();
                providers.register(joining);
                join[i] = providerList.awaitMatch(l -> l.size() == 2, 10_000) - start;
                start = System.nanoTime();
                providers.unregister(joining);
                leave[i] = providerList.awaitMatch(l -> l.size() == 1, 10_000) - start;
            }
            report("provider joins  (register -> consumer notified)", join);
            report("provider leaves (unregister -> consumer notified)", leave);

            long[] added = new long[FLIPS];
            long[] removed = new long[FLIPS];
            String rule = "/weft/" + SERVICE + "/configurators/" + NodeNames.encode(URL.valueOf(
                    "override://0.0.0.0/" + SERVICE + "?category=configurators&dynamic=false&sayHello.mock=force%3Areturn+degraded"));
            for (int i = 0; i < FLIPS; i++) {
                long start = System.nanoTime();
                operator.create().forPath(rule);
                added[i] = rules.awaitMatch(l -> l.get(0).getProtocol().equals("override"), 10_000) - start;
                start = System.nanoTime();
                operator.delete().forPath(rule);
                removed[i] = rules.awaitMatch(l -> l.get(0).getProtocol().equals("empty"), 10_000) - start;
            }
            report("override added   (create -> consumer notified)", added);
            report("override removed (delete -> consumer notified)", removed);
        }
    }

    /** {@code count} providers of one service with node names of about {@code nameBytes}. */
    private static void largeFolder(String connect, CuratorFramework operator, int count, int nameBytes, String query)
            throws Exception {
        String service = SERVICE + "Large" + nameBytes + (query.isEmpty() ? "" : "Raised");
        String folder = "/weft/" + service + "/providers";
        long bytes = 0;
        List<String> created = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = NodeNames.encode(provider(service, i, nameBytes));
            created.add(name);
            bytes += name.getBytes(StandardCharsets.UTF_8).length + 4;
            operator.create().creatingParentsIfNeeded().withMode(CreateMode.PERSISTENT).forPath(folder + "/" + name);
        }
        System.out.printf("%n%d providers, names of ~%d bytes: children ~%d bytes (jute.maxbuffer default 1048575) %s%n",
                count, bytes / count, bytes, query);
        URL registryUrl = EmbeddedZooKeeper.registryUrl(connect, "session=30000" + (query.isEmpty() ? "" : "&" + query));
        try (ZookeeperRegistry consumer = new ZookeeperRegistry(registryUrl)) {
            Latest list = new Latest();
            long start = System.nanoTime();
            consumer.subscribe(URL.valueOf("consumer://127.0.0.1/" + service), list);
            try {
                long at = list.awaitMatch(l -> l.size() == count, 15_000);
                System.out.printf("  first full list: %.1f ms%n", (at - start) / 1e6);
            } catch (IllegalStateException e) {
                System.out.printf("  no full list within 15 s (%s); health %s%n", e.getMessage(), consumer.health());
                return;
            }
            long cpuBefore = registryCpuNanos();
            long[] change = new long[50];
            for (int i = 0; i < change.length; i++) {
                String extra = folder + "/" + NodeNames.encode(provider(service, count + i, nameBytes));
                long start2 = System.nanoTime();
                operator.create().forPath(extra);
                change[i] = list.awaitMatch(l -> l.size() == count + 1, 10_000) - start2;
                operator.delete().forPath(extra);
                list.awaitMatch(l -> l.size() == count, 10_000);
            }
            long cpu = registryCpuNanos() - cpuBefore;
            report("  one provider added to the folder -> notified", change);
            System.out.printf("  registry threads' CPU per change (read + decode + deliver): %.2f ms%n",
                    cpu / 1e6 / (2 * change.length));
        } finally {
            for (String child : created) {
                operator.delete().forPath(folder + "/" + child);
            }
        }
    }

    /** {@code services} services of {@code perService} providers; one consumer subscribes to all. */
    private static void manyServices(String connect, CuratorFramework operator, int services, int perService,
            int nameBytes) throws Exception {
        for (int s = 0; s < services; s++) {
            String service = SERVICE + "Many" + s;
            for (int i = 0; i < perService; i++) {
                operator.create().creatingParentsIfNeeded()
                        .forPath("/weft/" + service + "/providers/" + NodeNames.encode(provider(service, i, nameBytes)));
            }
        }
        URL registryUrl = EmbeddedZooKeeper.registryUrl(connect, "session=30000");
        try (ZookeeperRegistry consumer = new ZookeeperRegistry(registryUrl)) {
            List<Latest> lists = new ArrayList<>();
            long start = System.nanoTime();
            for (int s = 0; s < services; s++) {
                Latest list = new Latest();
                lists.add(list);
                consumer.subscribe(URL.valueOf("consumer://127.0.0.1/" + SERVICE + "Many" + s), list);
                consumer.subscribe(URL.valueOf("consumer://127.0.0.1/" + SERVICE + "Many" + s
                        + "?category=configurators"), new Latest());
            }
            long last = 0;
            for (Latest list : lists) {
                last = Math.max(last, list.awaitMatch(l -> l.size() == perService, 60_000));
            }
            Thread.sleep(1_000);
            long nodes = countNodes(operator, "/weft");
            System.out.printf("%n%d services x %d providers (names ~%d bytes): all lists in %.0f ms; ZooKeeper nodes under"
                    + " /weft: %d; watches: %d persistent (2 per service)%n", services, perService, nameBytes,
                    (last - start) / 1e6, nodes, services * 2);
        }
    }

    private static long countNodes(CuratorFramework client, String path) throws Exception {
        long n = 1;
        for (String child : client.getChildren().forPath(path)) {
            n += countNodes(client, path + "/" + child);
        }
        return n;
    }

    private static URL provider(String service, int i, int nameBytes) {
        String base = "weft://10.0." + (i / 250) + "." + (i % 250) + ":20880/" + service
                + "?application=demo-provider&methods=sayHello,sayBye&side=provider&timestamp=1764590000000&weight=100";
        int pad = Math.max(0, nameBytes - NodeNames.encode(URL.valueOf(base)).length() - 8);
        char[] filler = new char[pad];
        Arrays.fill(filler, 'x');
        return URL.valueOf(base + "&z=" + new String(filler));
    }

    private static long registryCpuNanos() {
        var threads = ManagementFactory.getThreadMXBean();
        long total = 0;
        for (long id : threads.getAllThreadIds()) {
            var info = threads.getThreadInfo(id);
            if (info != null && info.getThreadName().startsWith("weft-zk-")) {
                total += Math.max(0, threads.getThreadCpuTime(id));
            }
        }
        return total;
    }

    private static void report(String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        System.out.printf("%-55s n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms%n", what, sorted.length,
                sorted[sorted.length / 2] / 1e6, sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1e6,
                sorted[sorted.length - 1] / 1e6);
    }
}
