package dev.weft.rpc.examples.spring.bars;

import java.io.File;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Spring Boot bars, run by hand (not a test): the same provider app and consumer app (a REST
 * endpoint calling the provider) on Weft's starter and on dubbo-spring-boot-starter, no registry,
 * direct URL, each app in its own JVM. Per round and stack: consumer process start to first
 * answered HTTP request, heap used after start and one full GC ({@code jcmd GC.run}), and the
 * requests per second of 64 concurrent HTTP clients through the consumer, with failed requests
 * counted apart. Two more stacks are floors, with neither RPC stack on the class path: {@code none},
 * the same endpoint answering by itself, so each stack's own share of start-up and heap shows; and
 * {@code socket}, the endpoint making its one round trip on a plain blocking socket to an echo
 * server, which bounds the throughput any RPC stack can reach on this set-up. Each consumer's class
 * histogram after that GC is written beside the apps' logs ({@code .histo}).
 *
 * <p>The clients run {@code -Dbars.warmup=SECONDS} (default 90) before requests are counted for
 * 10 s: every round starts fresh JVMs, and on the two cores the apps share the JIT is still
 * compiling Spring, Tomcat and the RPC stack's hot paths 50 to 60 s after a consumer starts (about
 * a thousand C2 compilations then); counted before that, the figure is the JIT's progress.
 *
 * <p>{@code -Dbars.stacks} names the stacks to run (default all four, {@code weft,dubbo,none,socket}).
 *
 * <p>Arguments: the class path file written by {@code dependency:build-classpath}, the example's
 * classes directory, the number of rounds (default 3). Every socket is on 127.0.0.1.
 */
public final class Bars {

    private static final int CLIENTS = 64;
    private static final Duration WARM_UP = Duration.ofSeconds(Long.getLong("bars.warmup", 90));
    private static final Duration MEASURE = Duration.ofSeconds(10);
    /** The stacks to run, in this order: {@code -Dbars.stacks=weft,socket} for a profile of two. */
    private static final List<String> STACKS = List.of(System.getProperty("bars.stacks", "weft,dubbo,none,socket").split(","));
    private static final Duration START_BOUND = Duration.ofSeconds(180);
    private static final int HTTP_PORT = 18080;
    private static final Pattern HEAP_USED = Pattern.compile("used (\\d+)K");
    private static final String JAVA = Path.of(System.getProperty("java.home"), "bin", "java").toString();
    private static final String JCMD = Path.of(System.getProperty("java.home"), "bin", "jcmd").toString();

    private Bars() {
    }

    /**
     * {@code leaveOut}: class path entries of the other stack ('|'-separated: a jar name part, or a
     * path part starting with '/'). No {@code providerMain}: the consumer answers by itself.
     */
    record Stack(String name, List<String> providerJvmArgs, String providerMain, List<String> providerArgs, int providerPort,
                 String consumerMain, List<String> consumerArgs, String leaveOut) {
    }

    /**
     * 127.0.0.1 as Dubbo keeps it: Dubbo reads any {@code 127.*} host as "none given", binds all
     * interfaces and connects to the LAN address; the IPv4-mapped literal it leaves alone.
     */
    private static final String DUBBO_LOOPBACK = "::ffff:127.0.0.1";

    /**
     * One round of one stack. Failures are counted apart from throughput: {@code errorAnswers} are
     * non-200 answers (the endpoint's RPC call failed, e.g. its timeout), {@code ioFailures} HTTP
     * requests that got no answer within the client's bound. {@code loadAverage}: the machine's
     * one-minute load average when the round ended, so a loaded round can be told apart.
     */
    record Figures(long startMillis, long heapKib, double requestsPerSecond, long errorAnswers, long ioFailures,
                   String loadAverage) {
    }

    public static void main(String[] args) throws Exception {
        List<String> dependencies = Arrays.asList(Files.readString(Path.of(args[0])).strip().split(File.pathSeparator));
        String classes = args[1];
        int rounds = args.length > 2 ? Integer.parseInt(args[2]) : 3;
        Path logs = Path.of(classes).getParent().resolve("bars");
        Files.createDirectories(logs);

        Stack weft = new Stack("weft", List.of(), "dev.weft.rpc.examples.spring.provider.ProviderApplication",
                List.of("--spring.main.web-application-type=none", "--example.zookeeper.embedded=false", "--weft.registry=",
                        "--weft.provider.url=weft://127.0.0.1:20880"), 20880,
                "dev.weft.rpc.examples.spring.consumer.ConsumerApplication",
                List.of("--weft.registry=", "--weft.consumer.parameters=url=weft%3A%2F%2F127.0.0.1%3A20880&timeout=1000&retries=2"),
                "dubbo");
        // The same Spring set-up as the Weft apps: their profile's properties (application name,
        // actuator exposure; the weft.* keys there mean nothing without Weft), the same Tomcat
        // defaults. Dubbo's defaults match Weft's: 200 provider threads, one shared connection;
        // the consumers both have timeout=1000 and retries=2.
        Stack dubbo = new Stack("dubbo", List.of("-DDUBBO_IP_TO_BIND=" + DUBBO_LOOPBACK), "dev.weft.rpc.examples.spring.bars.dubbo.provider.DubboProviderApplication",
                List.of("--spring.profiles.active=provider", "--example.zookeeper.embedded=false",
                        "--spring.main.web-application-type=none", "--dubbo.application.name=bars-provider",
                        "--dubbo.application.qos-enable=false", "--dubbo.registry.address=N/A", "--dubbo.protocol.name=dubbo",
                        "--dubbo.protocol.port=20881"), 20881,
                "dev.weft.rpc.examples.spring.bars.dubbo.consumer.DubboConsumerApplication",
                List.of("--spring.profiles.active=consumer", "--dubbo.application.name=bars-consumer", "--dubbo.application.qos-enable=false",
                        "--dubbo.registry.address=N/A", "--bars.provider=dubbo://[" + DUBBO_LOOPBACK + "]:20881"),
                "/rpc-");

        // The floor: the same endpoint answering by itself, with neither RPC stack on the class path.
        Stack none = new Stack("none", null, null, List.of(), 0,
                "dev.weft.rpc.examples.spring.bars.baseline.BaselineConsumerApplication",
                List.of("--spring.profiles.active=consumer"), "/rpc-|dubbo");

        // The network floor: the endpoint's one round trip on a plain blocking socket, no RPC stack.
        Stack socket = new Stack("socket", List.of(), "dev.weft.rpc.examples.spring.bars.socket.EchoServer", List.of("20882"), 20882,
                "dev.weft.rpc.examples.spring.bars.socket.SocketConsumerApplication",
                List.of("--spring.profiles.active=consumer", "--bars.echo-port=20882"), "/rpc-|dubbo");

        List<String> lines = new ArrayList<>();
        BarsResults results = new BarsResults(args);
        List<Stack> known = List.of(weft, dubbo, none, socket);
        List<String> unknown = STACKS.stream().filter(name -> known.stream().noneMatch(stack -> stack.name().equals(name))).toList();
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("-Dbars.stacks: " + String.join(",", unknown)
                    + " (expected: some of weft, dubbo, none, socket, comma-separated)");
        }
        List<Stack> stacks = known.stream().filter(stack -> STACKS.contains(stack.name())).toList();
        for (int round = 1; round <= rounds; round++) {
            for (Stack stack : stacks) {
                Figures figures = run(stack, classPath(classes, dependencies, stack.leaveOut()), logs, round);
                String line = String.format("| %d | %s | %d | %.1f | %.0f | %d | %d | %s |", round, stack.name(),
                        figures.startMillis(), figures.heapKib() / 1024.0, figures.requestsPerSecond(), figures.errorAnswers(),
                        figures.ioFailures(), figures.loadAverage());
                System.out.println(line);
                lines.add(line);
                results.add(round, stack.name(), figures);
            }
        }
        System.out.println("| round | stack | consumer start to first answer (ms) | heap after start + GC (MiB)"
                + " | req/s, 64 clients | non-200 answers | no answer (I/O) | load average |");
        lines.forEach(System.out::println);
        results.write();
    }

    /** The example's classes and its dependencies, less those {@code leaveOut} names ('|'-separated parts). */
    private static String classPath(String classes, List<String> dependencies, String leaveOut) {
        List<String> entries = new ArrayList<>();
        entries.add(classes);
        for (String entry : dependencies) {
            boolean left = false;
            for (String part : leaveOut.split("\\|")) {
                String name = part.startsWith("/") ? entry : Path.of(entry).getFileName().toString();
                left |= name.contains(part);
            }
            if (!left) {
                entries.add(entry);
            }
        }
        return String.join(File.pathSeparator, entries);
    }

    private static Figures run(Stack stack, String classPath, Path logs, int round) throws Exception {
        Process provider = stack.providerMain() == null ? null : start(classPath, stack.providerJvmArgs(),
                stack.providerMain(), stack.providerArgs(), logs.resolve(stack.name() + "-provider-" + round));
        Process consumer = null;
        try {
            if (provider != null) {
                awaitPort(stack.providerPort(), provider);
            }
            HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
            URI greet = URI.create("http://127.0.0.1:" + HTTP_PORT + "/greet?name=ada");
            List<String> consumerArgs = new ArrayList<>(stack.consumerArgs());
            consumerArgs.add("--server.port=" + HTTP_PORT);
            long started = System.nanoTime();
            consumer = start(classPath, List.of(), stack.consumerMain(), consumerArgs,
                    logs.resolve(stack.name() + "-consumer-" + round));
            awaitAnswer(http, greet, consumer);
            long startMillis = (System.nanoTime() - started) / 1_000_000;
            long heapKib = heapAfterGc(consumer.pid());
            Files.writeString(logs.resolve(stack.name() + "-consumer-" + round + ".histo"),
                    jcmd(consumer.pid(), "GC.class_histogram"));
            return throughput(http, greet, startMillis, heapKib);
        } finally {
            stop(consumer);
            stop(provider);
        }
    }

    private static Process start(String classPath, List<String> jvmArgs, String main, List<String> args, Path log)
            throws IOException {
        List<String> command = new ArrayList<>(List.of(JAVA, "-Xmx512m"));
        command.addAll(jvmArgs);
        command.addAll(List.of("-cp", classPath, main));
        command.addAll(args);
        command.add("--server.address=127.0.0.1");
        return new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(log.toFile()).start();
    }

    private static void awaitPort(int port, Process process) throws InterruptedException {
        long deadline = System.nanoTime() + START_BOUND.toNanos();
        while (System.nanoTime() < deadline && process.isAlive()) {
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(10);
            }
        }
        throw new IllegalStateException("provider on port " + port + ": not listening (alive: " + process.isAlive() + ")");
    }

    private static void awaitAnswer(HttpClient http, URI greet, Process consumer) throws InterruptedException {
        long deadline = System.nanoTime() + START_BOUND.toNanos();
        while (System.nanoTime() < deadline && consumer.isAlive()) {
            try {
                HttpResponse<String> response = http.send(HttpRequest.newBuilder(greet).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (response.statusCode() == 200 && response.body().equals("hello ada")) {
                    return;
                }
            } catch (ConnectException notYet) {
                // the consumer is still starting
            } catch (IOException other) {
                // refused or reset while the server comes up
            }
            Thread.sleep(5);
        }
        throw new IllegalStateException("consumer: no answer within " + START_BOUND + " (alive: " + consumer.isAlive() + ")");
    }

    private static long heapAfterGc(long pid) throws IOException, InterruptedException {
        jcmd(pid, "GC.run");
        String info = jcmd(pid, "GC.heap_info");
        Matcher used = HEAP_USED.matcher(info);
        if (!used.find()) {
            throw new IllegalStateException("GC.heap_info: no 'used' figure in " + info);
        }
        return Long.parseLong(used.group(1));
    }

    private static String jcmd(long pid, String command) throws IOException, InterruptedException {
        Process jcmd = new ProcessBuilder(JCMD, Long.toString(pid), command).redirectErrorStream(true).start();
        String out = new String(jcmd.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        jcmd.waitFor();
        return out;
    }

    private static Figures throughput(HttpClient http, URI greet, long startMillis, long heapKib) throws Exception {
        AtomicBoolean counting = new AtomicBoolean();
        AtomicBoolean stop = new AtomicBoolean();
        LongAdder answered = new LongAdder();
        LongAdder errorAnswers = new LongAdder();
        LongAdder ioFailures = new LongAdder();
        ExecutorService clients = Executors.newFixedThreadPool(CLIENTS);
        List<Future<?>> running = new ArrayList<>();
        for (int i = 0; i < CLIENTS; i++) {
            running.add(clients.submit(() -> {
                HttpRequest request = HttpRequest.newBuilder(greet).timeout(Duration.ofSeconds(10)).build();
                while (!stop.get()) {
                    LongAdder outcome;
                    try {
                        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
                        outcome = response.statusCode() == 200 ? answered : errorAnswers;
                    } catch (IOException e) {
                        outcome = ioFailures;
                    }
                    if (counting.get()) {
                        outcome.increment();
                    }
                }
                return null;
            }));
        }
        Thread.sleep(WARM_UP.toMillis());
        counting.set(true);
        long begun = System.nanoTime();
        Thread.sleep(MEASURE.toMillis());
        counting.set(false);
        double seconds = (System.nanoTime() - begun) / 1e9;
        stop.set(true);
        for (Future<?> client : running) {
            client.get();
        }
        clients.shutdown();
        return new Figures(startMillis, heapKib, answered.sum() / seconds, errorAnswers.sum(), ioFailures.sum(), loadAverage());
    }

    /** The one-minute load average ({@code /proc/loadavg}), or "?" where there is none. */
    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).split(" ")[0];
        } catch (IOException | RuntimeException e) {
            return "?";
        }
    }

    private static void stop(Process process) throws InterruptedException {
        if (process != null) {
            process.destroy();
            if (!process.waitFor(30, java.util.concurrent.TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor();
            }
        }
    }

}
