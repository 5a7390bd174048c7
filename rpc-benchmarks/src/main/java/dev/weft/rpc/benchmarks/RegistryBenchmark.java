package dev.weft.rpc.benchmarks;

import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.weft.rpc.cluster.Cluster;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.proxy.ProxyFactory;
import dev.weft.rpc.registry.RegistryDirectory;
import dev.weft.rpc.registry.zookeeper.ZookeeperRegistry;
import dev.weft.rpc.spi.ExtensionDirector;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.api.transaction.CuratorOp;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

import java.io.InputStream;
import java.io.OutputStream;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.lang.management.ThreadMXBean;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.Socket;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * Run by hand (not JMH, not CI): the consumer side of {@code rpc-registry-zookeeper} and
 * {@link RegistryDirectory} against a real ZooKeeper ({@code TestingServer} on 127.0.0.1).
 *
 * <ul>
 *   <li>{@code change}: 2,000 providers of one service (node names of ~400 bytes), joined to a
 *       {@code failover} cluster, {@code lazy=true}; then single changes (one provider added, then
 *       removed), after 50 unmeasured ones that let the JIT compile the change path. For each
 *       change, the CPU time (ThreadMXBean) of the consumer's threads from the write to the
 *       directory publishing the new state: the registry's own threads
 *       ({@code weft-zk-*}), the directory's refresh thread, and (reported apart) the ZooKeeper
 *       client's I/O threads that read the answer off the socket.</li>
 *   <li>{@code routing}: the same 2,000 providers (each with a {@code zone} of 20 and an {@code env}
 *       of 3) and 50 condition rules in the {@code routers} folder; then single rule changes (a
 *       51st rule added, then removed), after 50 unmeasured ones. For each change: the CPU time of
 *       the consumer's threads from the write to the directory publishing the new state, plus the
 *       routing of the new state (the routed list of each method of the interface, which the first
 *       call of each method computes, taken on the benchmark's thread right after publication); and the wall time
 *       from the write to the published state.</li>
 *   <li>{@code cycles}: add/remove cycles of a provider registered by a provider-side registry,
 *       referred through the real {@code weft} protocol and counted by the {@code counting}
 *       protocol. A base provider stays on one server; each cycling provider is on a second
 *       server, so each cycle opens a connection (at refer) and closes it (at destroy). Reports
 *       which kinds of thread (names without their numbers) changed in count, and
 *       invokers created and destroyed, the server's watches, threads, open file descriptors,
 *       the time taken and the heap after.</li>
 * </ul>
 *
 * <pre>
 * mvn -B -ntp -q -DskipTests install
 * java -cp rpc-benchmarks/target/benchmarks.jar dev.weft.rpc.benchmarks.RegistryBenchmark change [changes]
 * java -cp rpc-benchmarks/target/benchmarks.jar dev.weft.rpc.benchmarks.RegistryBenchmark routing [changes]
 * java -cp rpc-benchmarks/target/benchmarks.jar dev.weft.rpc.benchmarks.RegistryBenchmark cycles [cycles] [max seconds]
 * </pre>
 */
public final class RegistryBenchmark {

    private static final String SERVICE = Greeter.class.getName();
    private static final long WAIT_MS = 120_000;
    private static final int WARM_UP_CHANGES = 50;

    private RegistryBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        // Lets the benchmark ask the server for its watch count ("wchs").
        System.setProperty("zookeeper.4lw.commands.whitelist", "wchs,cons");
        String mode = args.length > 0 ? args[0] : "change";
        if (!List.of("change", "routing", "cycles").contains(mode)) {
            throw new IllegalArgumentException("mode: " + mode + " (expected: change, routing or cycles)");
        }
        BenchmarkResults results = BenchmarkResults.start("registry-" + mode, args);
        try (TestingServer server = new TestingServer(new InstanceSpec(null, -1, -1, -1, true, -1, -1, -1,
                Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1"), true);
                CuratorFramework operator = CuratorFrameworkFactory.newClient(server.getConnectString(),
                        new RetryOneTime(100))) {
            operator.start();
            operator.blockUntilConnected(30, TimeUnit.SECONDS);
            switch (mode) {
                case "change" -> change(server, operator, args.length > 1 ? Integer.parseInt(args[1]) : 200, results);
                case "routing" -> routing(server, operator, args.length > 1 ? Integer.parseInt(args[1]) : 200, results);
                case "cycles" -> cycles(server, args.length > 1 ? Integer.parseInt(args[1]) : 10_000,
                        args.length > 2 ? Integer.parseInt(args[2]) : 3_600, results);
                default -> throw new IllegalArgumentException("mode: " + mode + " (expected: change, routing or cycles)");
            }
        }
        results.write();
    }

    // ------------------------------------------------------------------ change

    private static void change(TestingServer server, CuratorFramework operator, int changes, BenchmarkResults results)
            throws Exception {
        int count = 2_000;
        String folder = "/weft/" + SERVICE + "/providers";
        operator.create().creatingParentsIfNeeded().forPath(folder);
        long bytes = 0;
        List<CuratorOp> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            String name = nodeName(provider(i, 400));
            bytes += name.length() + 4;
            batch.add(operator.transactionOp().create().forPath(folder + "/" + name));
            if (batch.size() == 100 || i == count - 1) {
                operator.transaction().forOperations(batch);
                batch.clear();
            }
        }
        System.out.printf("%d providers, names of ~%d bytes (children ~%d bytes)%n", count, bytes / count, bytes);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Set<Long> before = ids(threads);
        try (BenchConsumer bench = new BenchConsumer(server, count)) {
            RegistryDirectory<Greeter> directory = bench.directory;

            Set<Long> consumerThreads = ids(threads);
            consumerThreads.removeAll(before);
            long[][] cpu = new long[BUCKETS.length][changes];
            long[] wall = new long[changes];
            double[] load = new double[changes];
            String extra = folder + "/" + nodeName(provider(count, 400));
            // The first changes run the change path before the JIT has compiled it: not measured.
            for (int i = -WARM_UP_CHANGES; i < changes; i++) {
                boolean add = (i + WARM_UP_CHANGES) % 2 == 0;
                int expected = add ? count + 1 : count;
                long[] cpu0 = cpu(threads, consumerThreads);
                double loadNow = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
                long refreshCount = directory.getRefreshCount();
                long t0 = System.nanoTime();
                if (add) {
                    operator.create().forPath(extra);
                } else {
                    operator.delete().forPath(extra);
                }
                await(() -> directory.getInvokers().size() == expected && directory.getRefreshCount() > refreshCount,
                        "change " + i);
                long elapsed = System.nanoTime() - t0;
                Thread.sleep(20); // lets the threads finish what follows publication before reading their clocks
                long[] cpu1 = cpu(threads, consumerThreads);
                if (i < 0) {
                    continue;
                }
                wall[i] = elapsed;
                load[i] = loadNow;
                for (int b = 0; b < BUCKETS.length; b++) {
                    cpu[b][i] = cpu1[b] - cpu0[b];
                }
            }
            long[] registryAndDirectory = new long[changes];
            for (int i = 0; i < changes; i++) {
                registryAndDirectory[i] = cpu[0][i] + cpu[1][i] + cpu[2][i];
            }
            System.out.printf("load average (1 min) during the changes: %.1f to %.1f on %d cores%n",
                    Arrays.stream(load).min().orElse(0), Arrays.stream(load).max().orElse(0),
                    Runtime.getRuntime().availableProcessors());
            results.put("providers", count).put("changes", changes).put("readyMs", bench.readyMillis)
                    .put("loadAverageMin", Arrays.stream(load).min().orElse(0))
                    .put("loadAverageMax", Arrays.stream(load).max().orElse(0));
            for (int b = 0; b < BUCKETS.length; b++) {
                report(results, BUCKET_KEYS[b], "CPU per change: " + BUCKETS[b], cpu[b]);
            }
            report(results, "cpuRegistryAndDirectory", "CPU per change: registry + directory (sum)", registryAndDirectory);
            report(results, "wall", "write -> directory published (wall)", wall);
            System.out.printf("refreshes: %d; cluster %s%n", directory.getRefreshCount(), bench.cluster.isAvailable());
        }
    }

    // ------------------------------------------------------------------ routing

    private static void routing(TestingServer server, CuratorFramework operator, int changes, BenchmarkResults results)
            throws Exception {
        int count = 2_000;
        String folder = "/weft/" + SERVICE;
        operator.create().creatingParentsIfNeeded().forPath(folder + "/providers");
        operator.create().creatingParentsIfNeeded().forPath(folder + "/routers");
        List<CuratorOp> batch = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            URL provider = provider(i, 400).addParameter("zone", "z" + (i % 20)).addParameter("env", "e" + (i % 3));
            batch.add(operator.transactionOp().create().forPath(folder + "/providers/" + nodeName(provider)));
            if (batch.size() == 100 || i == count - 1) {
                operator.transaction().forOperations(batch);
                batch.clear();
            }
        }
        for (int r = 0; r < 50; r++) {
            operator.create().forPath(folder + "/routers/" + nodeName(routingRule(r)));
        }
        System.out.printf("%d providers, 50 condition rules%n", count);
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        Set<Long> before = ids(threads);
        try (BenchConsumer bench = new BenchConsumer(server, count)) {
            RegistryDirectory<Greeter> directory = bench.directory;
            System.out.printf("greet routed to %d providers%n", directory.state().routes().of("greet", "").invokers().size());

            Set<Long> consumerThreads = ids(threads);
            consumerThreads.removeAll(before);
            long[] consumerCpu = new long[changes];
            long[] routingCpu = new long[changes];
            long[] wall = new long[changes];
            String extra = folder + "/routers/" + nodeName(routingRule(50));
            long self = Thread.currentThread().getId();
            for (int i = -WARM_UP_CHANGES; i < changes; i++) {
                boolean add = (i + WARM_UP_CHANGES) % 2 == 0;
                long[] cpu0 = cpu(threads, consumerThreads);
                long version = directory.state().version();
                long t0 = System.nanoTime();
                if (add) {
                    operator.create().forPath(extra);
                } else {
                    operator.delete().forPath(extra);
                }
                await(() -> directory.state().version() > version, "rule change " + i);
                long elapsed = System.nanoTime() - t0;
                long routing0 = threads.getThreadCpuTime(self);
                var routes = directory.state().routes();
                int routed = 0;
                for (Method method : Greeter.class.getMethods()) { // what the first call of each method computes
                    routed += routes.of(method.getName(), "").invokers().size();
                }
                long routingNanos = threads.getThreadCpuTime(self) - routing0;
                Thread.sleep(20); // lets the threads finish what follows publication before reading their clocks
                long[] cpu1 = cpu(threads, consumerThreads);
                if (routed == 0) {
                    throw new IllegalStateException("change " + i + " routed greet to no provider");
                }
                if (i < 0) {
                    continue;
                }
                wall[i] = elapsed;
                routingCpu[i] = routingNanos;
                consumerCpu[i] = cpu1[0] + cpu1[1] + cpu1[2] - cpu0[0] - cpu0[1] - cpu0[2] + routingNanos;
            }
            System.out.printf("load average (1 min) at the end: %.1f on %d cores%n",
                    ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage(), Runtime.getRuntime().availableProcessors());
            results.put("providers", count).put("rules", 50).put("changes", changes).put("readyMs", bench.readyMillis)
                    .put("loadAverageEnd1m", ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage());
            report(results, "cpuRouting", "CPU per rule change: routing of the new state (each method's routed list)", routingCpu);
            report(results, "cpuConsumer", "CPU per rule change: registry + directory + routing (sum)", consumerCpu);
            report(results, "wall", "rule write -> consumer state published (wall)", wall);
        }
    }

    /**
     * The consumer the {@code change} and {@code routing} modes measure: a {@link RegistryDirectory}
     * on its own ZooKeeper registry, refreshed on the {@code bench-directory} thread, joined to a
     * {@code failover} cluster ({@code lazy=true}: no connection), ready with every provider.
     */
    private static final class BenchConsumer implements AutoCloseable {
        final ExecutorService refreshes = Executors.newSingleThreadExecutor(
                new ThreadFactoryBuilder().setNameFormat("bench-directory-%d").setDaemon(true).build());
        final ExtensionDirector director = new ExtensionDirector(RegistryBenchmark.class.getClassLoader());
        final ZookeeperRegistry registry;
        final RegistryDirectory<Greeter> directory;
        final Invoker<Greeter> cluster;
        final double readyMillis;

        BenchConsumer(TestingServer server, int providers) throws InterruptedException {
            registry = new ZookeeperRegistry(URL.valueOf("zookeeper://" + server.getConnectString() + "?session=30000"));
            URL consumer = URL.valueOf("consumer://127.0.0.1/" + SERVICE + "?application=bench&side=consumer&lazy=true");
            long start = System.nanoTime();
            directory = RegistryDirectory.builder(Greeter.class, consumer, registry).director(director).executor(refreshes).build();
            cluster = director.getExtensionLoader(Cluster.class).getExtension("failover").join(directory);
            await(() -> directory.getInvokers().size() == providers, "the first full list");
            readyMillis = (System.nanoTime() - start) / 1e6;
            System.out.printf("directory ready with %d providers in %.0f ms%n", providers, readyMillis);
        }

        @Override
        public void close() {
            cluster.destroy();
            directory.destroy();
            registry.close();
            director.close();
            refreshes.shutdownNow();
        }
    }

    /**
     * Condition rule {@code r}: rules of several shapes (method and application conditions, zone
     * prefixes, env exclusions, host lists), most of which narrow the list and a few that would
     * leave no provider (skipped: {@code force=false}).
     */
    private static URL routingRule(int r) {
        String rule = switch (r % 5) {
            case 0 -> "method = greet => zone = z" + (r % 10) + "*";
            case 1 -> "application = bench => env != e" + (r % 3);
            case 2 -> "method = greet & application = bench => zone = z1" + (r % 10) + ",z" + (r % 20);
            case 3 -> "=> host = 127.0.0.* & port != " + (30_000 + r);
            default -> "application = other => zone = z" + r;
        };
        return URL.valueOf("condition://0.0.0.0/" + SERVICE + "?category=routers&dynamic=false&priority=" + (r % 7))
                .addParameter("rule", rule);
    }

    private static Set<Long> ids(ThreadMXBean threads) {
        Set<Long> ids = new HashSet<>();
        for (long id : threads.getAllThreadIds()) {
            ids.add(id);
        }
        return ids;
    }

    /** The keys of {@link #BUCKETS} in the results file, in the same order. */
    private static final String[] BUCKET_KEYS = {"cpuRegistryRead", "cpuDelivery", "cpuRefresh", "cpuZookeeperIo"};

    /** What {@link #cpu} reports, in its order. */
    private static final String[] BUCKETS = {
        "registry read (weft-zk-registry)",
        "delivery + directory intake (weft-zk-notify)",
        "directory refresh (bench-directory)",
        "ZooKeeper client I/O (SendThread, EventThread)",
    };

    /** CPU nanos of the threads {@code ids}, summed per {@link #BUCKETS} entry. */
    private static long[] cpu(ThreadMXBean threads, Set<Long> ids) {
        long[] sums = new long[BUCKETS.length];
        for (long id : ids) {
            var info = threads.getThreadInfo(id);
            long nanos = threads.getThreadCpuTime(id);
            if (info == null || nanos < 0) {
                continue;
            }
            String name = info.getThreadName();
            if (name.contains("SendThread") || name.contains("EventThread")) {
                sums[3] += nanos;
            } else if (name.startsWith("weft-zk-registry")) {
                sums[0] += nanos;
            } else if (name.startsWith("weft-zk-notify")) {
                sums[1] += nanos;
            } else if (name.startsWith("bench-directory")) {
                sums[2] += nanos;
            }
        }
        return sums;
    }

    private static URL provider(int i, int nameBytes) {
        String base = "weft://127.0.0.1:" + (30_000 + i) + "/" + SERVICE
                + "?application=demo-provider&methods=greet&side=provider&timestamp=1764590000000&weight=100";
        int pad = Math.max(0, nameBytes - nodeName(URL.valueOf(base)).length() - 8);
        char[] filler = new char[pad];
        Arrays.fill(filler, 'x');
        return URL.valueOf(base + "&z=" + new String(filler));
    }

    /** The node name the ZooKeeper registry gives {@code url}: the full URL, parameters sorted, form-encoded. */
    private static String nodeName(URL url) {
        return URLEncoder.encode(url.withParameters(new TreeMap<>(url.getParameters())).toFullString(),
                StandardCharsets.UTF_8);
    }

    // ------------------------------------------------------------------ cycles

    /** {@code cycles} add/remove cycles, stopping early (and saying so) after {@code maxSeconds}. */
    private static void cycles(TestingServer server, int cycles, int maxSeconds, BenchmarkResults results) throws Exception {
        ThreadMXBean threads = ManagementFactory.getThreadMXBean();
        MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        URL registryUrl = URL.valueOf("zookeeper://" + server.getConnectString() + "?session=30000");
        ExecutorService refreshes = Executors.newSingleThreadExecutor(
                new ThreadFactoryBuilder().setNameFormat("bench-directory-%d").setDaemon(true).build());
        try (ExtensionDirector director = new ExtensionDirector(RegistryBenchmark.class.getClassLoader());
                ZookeeperRegistry providers = new ZookeeperRegistry(registryUrl);
                ZookeeperRegistry consumers = new ZookeeperRegistry(registryUrl)) {
            Protocol weft = director.getExtensionLoader(Protocol.class).getExtension("weft");
            CountingProtocol counting = (CountingProtocol) director.getExtensionLoader(Protocol.class)
                    .getExtension(CountingProtocol.NAME, false);
            ProxyFactory proxies = director.getExtensionLoader(ProxyFactory.class).getExtension("javassist");
            Exporter<Greeter> base = weft.export(proxies.getInvoker(new GreeterImpl(), Greeter.class,
                    URL.valueOf("weft://127.0.0.1:0/" + SERVICE)));
            Exporter<Greeter> cycled = weft.export(proxies.getInvoker(new GreeterImpl(), Greeter.class,
                    URL.valueOf("weft://127.0.0.1:0/" + SERVICE)));
            providers.register(URL.valueOf(CountingProtocol.NAME + "://127.0.0.1:" + base.getInvoker().getUrl().getPort()
                    + "/" + SERVICE + "?instance=base"));
            String address = CountingProtocol.NAME + "://127.0.0.1:" + cycled.getInvoker().getUrl().getPort() + "/" + SERVICE;
            URL consumer = URL.valueOf("consumer://127.0.0.1/" + SERVICE + "?application=bench&side=consumer");
            RegistryDirectory<Greeter> directory = RegistryDirectory.builder(Greeter.class, consumer, consumers)
                    .director(director).executor(refreshes).build();
            Invoker<Greeter> cluster = director.getExtensionLoader(Cluster.class).getExtension("failover").join(directory);
            await(() -> directory.getInvokers().size() == 1, "the first provider");

            settle();
            int threadsBefore = threads.getThreadCount();
            Map<String, Integer> threadKindsBefore = threadKinds();
            long fdsBefore = openFileDescriptors();
            String watchesBefore = fourLetterWord(server.getPort(), "wchs");
            long heapBefore = usedHeapAfterGc(memory);
            long start = System.nanoTime();
            long[] join = new long[cycles];
            long stopAt = start + TimeUnit.SECONDS.toNanos(maxSeconds);
            int done = 0;
            for (int i = 0; i < cycles && System.nanoTime() - stopAt < 0; i++) {
                URL cycling = URL.valueOf(address + "?instance=" + i + "&weight=" + (1 + i % 100));
                long t0 = System.nanoTime();
                providers.register(cycling);
                await(() -> directory.getInvokers().size() == 2, "cycle " + i + " add");
                join[i] = System.nanoTime() - t0;
                providers.unregister(cycling);
                await(() -> directory.getInvokers().size() == 1, "cycle " + i + " remove");
                done = i + 1;
                if (done % 500 == 0) {
                    System.out.printf("  %d cycles, %.0f s; invokers created %d, destroyed %d; threads %d%n", done,
                            (System.nanoTime() - start) / 1e9, counting.created(), counting.destroyed(),
                            threads.getThreadCount());
                }
            }
            if (done < cycles) {
                System.out.printf("stopped at the time bound (%d s) after %d of %d cycles%n", maxSeconds, done, cycles);
            }
            join = Arrays.copyOf(join, Math.max(1, done));
            double seconds = (System.nanoTime() - start) / 1e9;
            await(() -> counting.live() == 1, "the last removed invoker destroyed");
            settle();
            System.out.printf("%d add/remove cycles in %.1f s (%.1f ms per cycle)%n", done, seconds,
                    seconds * 1e3 / Math.max(1, done));
            report(results, "join", "register -> directory lists it (wall)", join);
            System.out.printf("invokers created %d, destroyed %d, live %d (the base provider)%n",
                    counting.created(), counting.destroyed(), counting.live());
            int threadsAfter = threads.getThreadCount();
            long fdsAfter = openFileDescriptors();
            Map<String, String> changedKinds = changedKinds(threadKindsBefore, threadKinds());
            String watchesAfter = fourLetterWord(server.getPort(), "wchs");
            long heapAfter = usedHeapAfterGc(memory);
            System.out.printf("threads %d -> %d; open file descriptors %d -> %d%n", threadsBefore, threadsAfter, fdsBefore, fdsAfter);
            System.out.printf("thread kinds that changed (name without its number: before -> after): %s%n", changedKinds);
            System.out.printf("server watches before: %s%n               after: %s%n", watchesBefore, watchesAfter);
            System.out.printf("heap used after GC %.1f MB -> %.1f MB%n", heapBefore / 1e6, heapAfter / 1e6);
            results.put("cycles", done).put("cyclesAsked", cycles).put("seconds", seconds)
                    .put("invokersCreated", counting.created()).put("invokersDestroyed", counting.destroyed())
                    .put("threadsBefore", threadsBefore).put("threadsAfter", threadsAfter).put("threadKindsChanged", changedKinds)
                    .put("fdsBefore", fdsBefore).put("fdsAfter", fdsAfter)
                    .put("watchesBefore", watchesBefore).put("watchesAfter", watchesAfter)
                    .put("heapBeforeMb", heapBefore / 1e6).put("heapAfterMb", heapAfter / 1e6);
            cluster.destroy();
            directory.destroy();
            System.out.printf("after destroy: created %d, destroyed %d%n", counting.created(), counting.destroyed());
            results.put("invokersCreatedAfterDestroy", counting.created())
                    .put("invokersDestroyedAfterDestroy", counting.destroyed());
            cycled.unexport();
            base.unexport();
        } finally {
            refreshes.shutdownNow();
        }
    }

    /** Live threads counted by name, with the digits that number them in their pool removed. */
    private static Map<String, Integer> threadKinds() {
        Map<String, Integer> kinds = new TreeMap<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            kinds.merge(thread.getName().replaceAll("\\d+", "#"), 1, Integer::sum);
        }
        return kinds;
    }

    private static Map<String, String> changedKinds(Map<String, Integer> before, Map<String, Integer> after) {
        Map<String, String> changed = new TreeMap<>();
        Set<String> names = new HashSet<>(before.keySet());
        names.addAll(after.keySet());
        for (String name : names) {
            int b = before.getOrDefault(name, 0);
            int a = after.getOrDefault(name, 0);
            if (a != b) {
                changed.put(name, b + " -> " + a);
            }
        }
        return changed;
    }

    private static void settle() throws InterruptedException {
        Thread.sleep(2_000);
    }

    private static long usedHeapAfterGc(MemoryMXBean memory) throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(200);
        }
        return memory.getHeapMemoryUsage().getUsed();
    }

    private static long openFileDescriptors() {
        if (ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.UnixOperatingSystemMXBean unix) {
            return unix.getOpenFileDescriptorCount();
        }
        return -1;
    }

    /** The server's answer to a four-letter word, on one line. */
    private static String fourLetterWord(int port, String word) throws Exception {
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            OutputStream out = socket.getOutputStream();
            out.write(word.getBytes(StandardCharsets.US_ASCII));
            out.flush();
            InputStream in = socket.getInputStream();
            return new String(in.readAllBytes(), StandardCharsets.US_ASCII).trim().replace('\n', ' ');
        }
    }

    // ------------------------------------------------------------------ helpers

    private static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(WAIT_MS);
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("not within " + WAIT_MS + " ms: " + what);
            }
            Thread.sleep(0, 200_000);
        }
    }

    /** Prints the percentiles of {@code nanos} and adds them to {@code results} as measure {@code key}. */
    private static void report(BenchmarkResults results, String key, String what, long[] nanos) {
        long[] sorted = nanos.clone();
        Arrays.sort(sorted);
        double p50 = sorted[sorted.length / 2] / 1e6;
        double p99 = sorted[(int) Math.ceil(sorted.length * 0.99) - 1] / 1e6;
        double max = sorted[sorted.length - 1] / 1e6;
        System.out.printf("%-48s n=%d p50=%.2f ms p99=%.2f ms max=%.2f ms%n", what, sorted.length, p50, p99, max);
        results.add("measures", BenchmarkResults.row("measure", key, "what", what, "n", sorted.length, "p50Ms", p50,
                "p99Ms", p99, "maxMs", max));
    }
}
