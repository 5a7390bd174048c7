package dev.weft.rpc.benchmarks;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The network benchmark, run by hand: for the raw Netty echo, Weft (sync, and {@code weft-async}: one
 * caller thread keeping the calls in flight through a {@code CompletableFuture} method) and Dubbo in
 * turn, a server JVM ({@link NetServer}) and a load generator JVM ({@link NetClient}) on 127.0.0.1;
 * prints a table with throughput, p50 and p99 for 1 and 64 callers (for {@code weft-async}: 1 and
 * 64 calls in flight from one thread), the client process's start to its first answer, and the
 * ratios against the bars: Weft against the echo, against Dubbo, and async against sync. Each run prints the load average before and after it, since
 * on a shared machine the figures mean little without it.
 *
 * <pre>java [-Dnet.jvmArgs="-Xshare:off ..."] [-Dnet.targets=echo,weft,weft-async,dubbo] [-Dnet.classPaths=dir]
 *     -cp rpc-benchmarks/target/benchmarks.jar dev.weft.rpc.benchmarks.NetworkBenchmark [seconds [runs]]</pre>
 *
 * <p>Every child JVM gets the same options ({@code -Xmx} and {@code net.jvmArgs}, space-separated)
 * and a class path of only what its target needs: the jar of the benchmark's network classes
 * ({@code *-net.jar}) and the jars Maven listed for that target in {@code <name>.classpath}, both
 * in {@code net.classPaths} (default: {@code net/} next to the jar holding this class, i.e.
 * {@code rpc-benchmarks/target/net}). Process start to first call is timed here, from just before
 * the client process is launched to the moment its line saying so arrives: JVM creation included.
 * Neither {@code RuntimeMXBean.getStartTime()} (the end of JVM initialisation) nor
 * {@code ProcessHandle...startInstant()} (whole-second boot time plus clock ticks on Linux) marks
 * the process's start. The client adds its CPU time and the time after JVM initialisation.
 */
public final class NetworkBenchmark {

    private NetworkBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int runs = args.length > 1 ? Integer.parseInt(args[1]) : 1;
        List<NetTarget> targets = new ArrayList<>();
        for (String name : System.getProperty("net.targets", "echo,weft,weft-async,dubbo").split(",")) {
            targets.add(NetTarget.of(name));
        }
        Path classPaths = classPathDirectory();
        Map<NetTarget, String> classPathOf = new LinkedHashMap<>();
        for (NetTarget target : targets) {
            classPathOf.put(target, classPath(classPaths, target));
            System.out.println(target.key() + " class path: "
                    + classPathOf.get(target).split(File.pathSeparator).length + " entries");
        }
        BenchmarkResults written = BenchmarkResults.start("network", args)
                .put("secondsPerPhase", seconds)
                .put("targets", targets.stream().map(NetTarget::key).toList());
        for (int run = 1; run <= runs; run++) {
            String before = loadAverage();
            System.out.println("run " + run + ", load average before: " + before);
            Map<NetTarget, Map<String, Long>> results = new LinkedHashMap<>();
            for (NetTarget target : targets) {
                results.put(target, measure(target, classPathOf.get(target), seconds));
            }
            String after = loadAverage();
            System.out.println("run " + run + ", load average after: " + after);
            print(results);
            Map<String, Map<String, Long>> byKey = new LinkedHashMap<>();
            results.forEach((target, figures) -> byKey.put(target.key(), figures));
            written.add("runs", BenchmarkResults.row("run", run, "loadAverageBefore", before, "loadAverageAfter", after,
                    "targets", byKey));
        }
        written.write();
    }

    private static Path classPathDirectory() throws Exception {
        String configured = System.getProperty("net.classPaths");
        if (configured != null) {
            return Path.of(configured);
        }
        Path codeSource = Path.of(NetworkBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        return codeSource.getParent().resolve("net");
    }

    /** The network classes' jar, then the jars Maven listed for {@code target}. */
    private static String classPath(Path directory, NetTarget target) throws IOException {
        Path listed = directory.resolve(target.classPathKey() + ".classpath");
        if (!Files.isRegularFile(listed)) {
            throw new IllegalArgumentException("net.classPaths: " + directory + " (expected: a directory with "
                    + listed.getFileName() + ", written by `mvn package` in rpc-benchmarks)");
        }
        List<Path> classesJars;
        try (var files = Files.list(directory)) {
            classesJars = files.filter(f -> f.getFileName().toString().endsWith("-net.jar")).toList();
        }
        if (classesJars.size() != 1) {
            throw new IllegalArgumentException("net.classPaths: " + directory + " (expected: exactly one *-net.jar, found "
                    + classesJars + ")");
        }
        return classesJars.get(0) + File.pathSeparator + Files.readString(listed, StandardCharsets.UTF_8).trim();
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            return "unknown (" + e.getMessage() + ")";
        }
    }

    private static void print(Map<NetTarget, Map<String, Long>> results) {
        System.out.println("| | 1 caller calls/s | p50 µs | p99 µs | 64 callers calls/s | p50 µs | p99 µs"
                + " | process start to first answer ms | after JVM init ms | CPU ms |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        results.forEach((target, r) -> System.out.printf(Locale.ROOT, "| %s | %d | %d | %d | %d | %d | %d | %d | %d | %d |%n",
                target.key(), r.get("1.tput"), r.get("1.p50"), r.get("1.p99"),
                r.get("64.tput"), r.get("64.p50"), r.get("64.p99"), r.get("first"), r.get("afterInit"), r.get("firstCpu")));
        Map<String, Long> w = results.get(NetTarget.WEFT);
        Map<String, Long> a = results.get(NetTarget.WEFT_ASYNC);
        Map<String, Long> d = results.get(NetTarget.DUBBO);
        Map<String, Long> e = results.get(NetTarget.ECHO);
        if (w != null && e != null) {
            System.out.printf(Locale.ROOT, "64 callers throughput weft/echo: %.2f (bar >= 0.85)%n", ratio(w, e, "64.tput"));
            System.out.printf(Locale.ROOT, "1 caller p50 weft/echo: %.2f (bar <= 1.2)%n", ratio(w, e, "1.p50"));
            System.out.printf(Locale.ROOT, "start to first call weft/echo: %.2f (bar <= 1.25)%n", ratio(w, e, "first"));
        }
        if (w != null && a != null) {
            System.out.printf(Locale.ROOT, "64 in flight from 1 thread weft-async / 64 callers weft: %.2f (bar >= 0.9)%n",
                    ratio(a, w, "64.tput"));
        }
        if (w != null && d != null) {
            System.out.printf(Locale.ROOT, "64 callers throughput weft/dubbo: %.2f (bar >= 2)%n", ratio(w, d, "64.tput"));
            System.out.printf(Locale.ROOT, "1 caller p50 weft/dubbo: %.2f (bar <= 0.75)%n", ratio(w, d, "1.p50"));
            System.out.printf(Locale.ROOT, "1 caller p99 weft/dubbo: %.2f (bar <= 1)%n", ratio(w, d, "1.p99"));
            System.out.printf(Locale.ROOT, "start to first call weft/dubbo: %.2f (bar <= 0.4)%n", ratio(w, d, "first"));
            System.out.printf(Locale.ROOT, "first call after JVM init weft/dubbo: %.2f%n", ratio(w, d, "afterInit"));
        }
        if (e != null && d != null) {
            System.out.printf(Locale.ROOT, "start to first call echo/dubbo: %.2f%n", ratio(e, d, "first"));
        }
    }

    private static double ratio(Map<String, Long> weft, Map<String, Long> dubbo, String key) {
        return (double) weft.get(key) / dubbo.get(key);
    }

    private static List<String> command(String java, String heap, String classPath, String mainClass, String... args) {
        List<String> command = new ArrayList<>(List.of(java, heap));
        for (String option : System.getProperty("net.jvmArgs", "").trim().split("\\s+")) {
            if (!option.isEmpty()) {
                command.add(option);
            }
        }
        command.addAll(List.of("-cp", classPath, mainClass));
        command.addAll(List.of(args));
        return command;
    }

    private static Map<String, Long> measure(NetTarget target, String classPath, int seconds) throws Exception {
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        String name = target.key();
        Process server = new ProcessBuilder(command(java, "-Xmx512m", classPath, NetServer.class.getName(), name))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        try {
            BufferedReader serverOut = new BufferedReader(new InputStreamReader(server.getInputStream(), StandardCharsets.UTF_8));
            String line;
            int port = -1;
            while ((line = serverOut.readLine()) != null) {
                if (line.startsWith("READY ")) {
                    port = Integer.parseInt(line.substring(6).trim());
                    break;
                }
            }
            if (port < 0) {
                throw new IllegalStateException(name + " server did not start");
            }
            long launched = System.nanoTime();
            Process client = new ProcessBuilder(command(java, "-Xmx1g", classPath, NetClient.class.getName(), name,
                    String.valueOf(port), String.valueOf(seconds)))
                    .redirectError(ProcessBuilder.Redirect.INHERIT).start();
            Map<String, Long> result = new LinkedHashMap<>();
            List<String> lines = new ArrayList<>();
            try (BufferedReader out = new BufferedReader(new InputStreamReader(client.getInputStream(), StandardCharsets.UTF_8))) {
                while ((line = out.readLine()) != null) {
                    lines.add(line);
                    if (line.equals("first-call-answered")) {
                        result.put("first", TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - launched));
                    } else if (line.startsWith("first-call-after-init-ms=")) {
                        result.put("afterInit", Long.parseLong(line.substring("first-call-after-init-ms=".length())));
                    } else if (line.startsWith("first-call-cpu-ms=")) {
                        result.put("firstCpu", Long.parseLong(line.substring("first-call-cpu-ms=".length())));
                    } else if (line.startsWith("callers=")) {
                        Map<String, String> kv = new LinkedHashMap<>();
                        for (String part : line.split(" ")) {
                            String[] pair = part.split("=", 2);
                            kv.put(pair[0], pair[1]);
                        }
                        String callers = kv.get("callers");
                        result.put(callers + ".tput", Long.parseLong(kv.get("calls-per-s")));
                        result.put(callers + ".p50", Long.parseLong(kv.get("p50-us")));
                        result.put(callers + ".p99", Long.parseLong(kv.get("p99-us")));
                    }
                }
            }
            if (!client.waitFor(10L * seconds + 120, TimeUnit.SECONDS) || result.size() < 9) {
                client.destroyForcibly();
                throw new IllegalStateException(name + " client failed: " + lines);
            }
            System.out.println(name + ": " + result);
            return result;
        } finally {
            server.getOutputStream().close();
            if (!server.waitFor(10, TimeUnit.SECONDS)) {
                server.destroyForcibly();
            }
        }
    }
}
