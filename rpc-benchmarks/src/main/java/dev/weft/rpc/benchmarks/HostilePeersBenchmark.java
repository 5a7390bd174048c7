package dev.weft.rpc.benchmarks;

import dev.weft.rpc.bootstrap.Weft;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The soak of a provider under hostile peers, run by hand: a provider JVM with a 256 MB heap
 * ({@link NetHostileProvider}) serves a real consumer (this JVM) at 500 calls per second while, in
 * turn, 10 clients that never read their answers, 48 trickling uploads, 100 malformed frames per
 * second and calls for a 100 MiB answer hit it, one phase each, with a quiet phase first. The
 * attackers run in a third JVM ({@link NetHostileAttacker}, one per phase), so they do not share the
 * consumer's JVM. Prints, per phase, the consumer's calls, failures, p50/p99/max latency (from each
 * call's intended start, so a stall counts in full), the calls the provider ran after their caller
 * had given up on them (each attempt carries its give-up instant, {@link GiveUpStampFilter}; the
 * provider compares it with the same host's monotonic clock, {@link StaleRunFilter}), and the
 * provider's heap and direct memory after the phase (attackers gone, two collections).
 *
 * <pre>java -cp rpc-benchmarks/target/benchmarks.jar dev.weft.rpc.benchmarks.HostilePeersBenchmark [seconds per phase] [attack,...]</pre>
 *
 * The optional second argument names the attacks to run (the quiet phase always runs first), of
 * {@code non-reading, trickling, malformed, big-answers}; with it, each attacked phase also prints
 * its per-second timeline (the consumer's calls started in that second, their p99 and max).
 */
public final class HostilePeersBenchmark {

    private static final int RATE = 500;
    /** The real consumer's timeout per attempt, in ms. */
    private static final int TIMEOUT = 2000;

    private HostilePeersBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 60;
        List<String> only = args.length > 1 ? List.of(args[1].split(",")) : null;
        String java = System.getProperty("java.home") + File.separator + "bin" + File.separator + "java";
        String jar = Path.of(HostilePeersBenchmark.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString();
        Process provider = new ProcessBuilder(java, "-Xmx256m", "-cp", jar, NetHostileProvider.class.getName(), "")
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(provider.getInputStream(), StandardCharsets.UTF_8));
        Writer in = new OutputStreamWriter(provider.getOutputStream(), StandardCharsets.UTF_8);
        int port = -1;
        for (String line; port < 0 && (line = out.readLine()) != null; ) {
            if (line.startsWith("READY ")) {
                port = Integer.parseInt(line.substring(6).trim());
            }
        }
        if (port < 0) {
            throw new IllegalStateException("provider did not start");
        }
        System.out.println("load average before: " + loadAverage());
        BenchmarkResults results = BenchmarkResults.start("hostile-peers", args).put("secondsPerPhase", seconds)
                .put("callsPerSecond", RATE).put("timeoutMs", TIMEOUT);
        List<String> rows = new ArrayList<>();
        try (Weft weft = Weft.builder().build()) {
            NetHostileService consumer = weft.refer(NetHostileService.class,
                    "url=weft://127.0.0.1:" + port + "&timeout=" + TIMEOUT + "&" + GiveUpStampFilter.KEY + "=" + TIMEOUT);
            for (int i = 0; i < 2_000; i++) {
                consumer.greet("warm-up");
            }
            long[] before = memory(in, out);
            Phase quiet = phase(consumer, seconds, null, port, java, jar);
            long[] after = memory(in, out);
            rows.add(row("quiet", quiet, after, before));
            results.add("phases", figures("quiet", quiet, after, before));
            String[][] phases = {
                    {"10 non-reading clients", NetHostileAttacker.NON_READING},
                    {"48 trickling uploads", NetHostileAttacker.TRICKLING},
                    {"100 malformed frames/s", NetHostileAttacker.MALFORMED},
                    {"100 MiB answers", NetHostileAttacker.BIG_ANSWERS}};
            for (String[] phase : phases) {
                if (only != null && !only.contains(phase[1])) {
                    continue;
                }
                before = after;
                Phase figures = phase(consumer, seconds, phase[1], port, java, jar);
                after = memory(in, out);
                rows.add(row(phase[0], figures, after, before));
                results.add("phases", figures(phase[0], figures, after, before));
                if (only != null) {
                    System.out.println("timeline of " + phase[0] + " (second: calls, p99 ms, max ms): " + figures.timeline);
                }
            }
        } finally {
            in.close();
            if (!provider.waitFor(20, TimeUnit.SECONDS)) {
                provider.destroyForcibly();
            }
        }
        System.out.println("load average after: " + loadAverage());
        System.out.println("| phase (" + seconds + " s) | calls | failed | p50 ms | p99 ms | max ms | run after their caller gave up"
                + " (of stamped runs) | attack | heap after MB | direct after MB |");
        System.out.println("|---|---|---|---|---|---|---|---|---|---|");
        rows.forEach(System.out::println);
        results.write();
    }

    /** The consumer's figures of one phase, and what the attack reported. */
    private record Phase(long calls, long failed, long p50, long p99, long max, String attack, String timeline) {
    }

    /** A row of the table; {@code after} and {@code before} are the provider's reports after and before the phase. */
    private static String row(String name, Phase phase, long[] after, long[] before) {
        return String.format(Locale.ROOT, "| %s | %d | %d | %.2f | %.2f | %.1f | %d (of %d) | %s | %.0f | %.1f |", name,
                phase.calls, phase.failed, phase.p50 / 1e6, phase.p99 / 1e6, phase.max / 1e6, after[3] - before[3],
                after[2] - before[2], phase.attack, after[0] / 1048576.0, after[1] / 1048576.0);
    }

    /** The figures of {@link #row} for the results file. */
    private static java.util.Map<String, Object> figures(String name, Phase phase, long[] after, long[] before) {
        return BenchmarkResults.row("phase", name, "calls", phase.calls, "failed", phase.failed, "p50Ms", phase.p50 / 1e6,
                "p99Ms", phase.p99 / 1e6, "maxMs", phase.max / 1e6, "staleRuns", after[3] - before[3],
                "stampedRuns", after[2] - before[2], "attack", phase.attack, "heapAfterMb", after[0] / 1048576.0,
                "directAfterMb", after[1] / 1048576.0);
    }

    private static long[] memory(Writer in, BufferedReader out) throws IOException, InterruptedException {
        Thread.sleep(3_000);
        in.write("mem\n");
        in.flush();
        for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith("MEM ")) {
                String[] parts = line.split(" ");
                return new long[] {Long.parseLong(parts[1]), Long.parseLong(parts[2]), Long.parseLong(parts[3]),
                        Long.parseLong(parts[4])};
            }
        }
        throw new IllegalStateException("provider ended");
    }

    /**
     * 500 calls per second for {@code seconds} while the attack {@code attack} ({@code null}: none)
     * runs in a JVM of its own, started first and given until the phase's calls begin to start.
     */
    private static Phase phase(NetHostileService consumer, int seconds, String attack, int port, String java, String jar)
            throws Exception {
        int total = RATE * seconds;
        long[] latencies = new long[total];
        AtomicLong failed = new AtomicLong();
        ExecutorService callers = Executors.newFixedThreadPool(64);
        ScheduledExecutorService ticks = Executors.newSingleThreadScheduledExecutor();
        Process attacker = attack == null ? null : new ProcessBuilder(java, "-Xmx256m", "-cp", jar,
                NetHostileAttacker.class.getName(), attack, Integer.toString(port), Integer.toString(seconds))
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        BufferedReader attackOut = attacker == null ? null
                : new BufferedReader(new InputStreamReader(attacker.getInputStream(), StandardCharsets.UTF_8));
        if (attackOut != null) {
            awaitLine(attackOut, "ATTACKING");
        }
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(100);
        AtomicLong next = new AtomicLong();
        ticks.scheduleAtFixedRate(() -> {
            long now = System.nanoTime();
            while (true) {
                long i = next.get();
                long intended = start + i * (1_000_000_000L / RATE);
                if (i >= total || intended > now || !next.compareAndSet(i, i + 1)) {
                    return;
                }
                callers.execute(() -> {
                    try {
                        consumer.greet("c" + i);
                    } catch (RuntimeException e) {
                        failed.incrementAndGet();
                    }
                    latencies[(int) i] = System.nanoTime() - intended;
                });
            }
        }, 0, 1, TimeUnit.MILLISECONDS);
        while (next.get() < total) {
            Thread.sleep(50);
        }
        ticks.shutdown();
        callers.shutdown();
        callers.awaitTermination(30, TimeUnit.SECONDS);
        String attackSummary = "none";
        if (attacker != null) {
            String result = awaitLine(attackOut, "RESULT ");
            attackSummary = result == null ? "attack failed (see its standard error)" : result.substring("RESULT ".length());
            if (!attacker.waitFor(30, TimeUnit.SECONDS)) {
                attacker.destroyForcibly();
            }
        }
        long[] sorted = latencies.clone();
        Arrays.sort(sorted);
        return new Phase(total, failed.get(), sorted[total / 2], sorted[(int) (total * 0.99)], sorted[total - 1], attackSummary,
                timeline(latencies));
    }

    /** Per second of intended starts: the calls, their p99 and max latency in ms. */
    private static String timeline(long[] latencies) {
        StringBuilder seconds = new StringBuilder();
        for (int from = 0; from < latencies.length; from += RATE) {
            long[] second = Arrays.copyOfRange(latencies, from, Math.min(latencies.length, from + RATE));
            Arrays.sort(second);
            seconds.append(String.format(Locale.ROOT, "%s%d: %d, %.1f, %.1f", from == 0 ? "" : "; ", from / RATE,
                    second.length, second[(int) (second.length * 0.99)] / 1e6, second[second.length - 1] / 1e6));
        }
        return seconds.toString();
    }

    /** The first line of {@code out} starting with {@code prefix}, or {@code null} when it ends first. */
    private static String awaitLine(BufferedReader out, String prefix) throws IOException {
        for (String line; (line = out.readLine()) != null; ) {
            if (line.startsWith(prefix)) {
                return line;
            }
        }
        return null;
    }

    private static String loadAverage() {
        try {
            return java.nio.file.Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).trim();
        } catch (IOException e) {
            return "unknown";
        }
    }
}
