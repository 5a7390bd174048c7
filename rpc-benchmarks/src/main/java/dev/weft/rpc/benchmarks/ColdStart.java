package dev.weft.rpc.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Runs each framework's cold-start main ({@link WeftColdStart}, {@link DubboColdStart}) in fresh
 * JVMs, alternating, and prints the median of the time from {@code main} to the first answer and
 * of the whole process (JVM start to exit).
 *
 * <p>Usage: {@code java -cp rpc-benchmarks/target/benchmarks.jar dev.weft.rpc.benchmarks.ColdStart [runs]}
 * (default 11 runs each).
 */
public final class ColdStart {
    /** Providers in the cold-start pipeline. */
    static final int PROVIDERS = 10;
    private static final String MARKER = "first-call-ns=";

    private ColdStart() {
    }

    /** Called by the cold-start mains: checks the answer, prints the marker line and exits. */
    static void report(String answer, long elapsedNanos) {
        if (!"Hello, cold".equals(answer)) {
            throw new IllegalStateException("first call answered " + answer + " (expected: Hello, cold)");
        }
        System.out.println(MARKER + elapsedNanos);
        System.out.flush();
        // Both frameworks may leave non-daemon threads; the measurement ends at the first answer.
        System.exit(0);
    }

    /** The figures of one fresh-JVM run. */
    record Run(long firstCallNanos, long processNanos) {
    }

    /** Starts {@code mainClass} in a fresh JVM with this class path, waits for it and reads its marker. */
    static Run runOnce(Class<?> mainClass) throws IOException, InterruptedException {
        Path java = Paths.get(System.getProperty("java.home"), "bin", "java");
        ProcessBuilder builder = new ProcessBuilder(java.toString(), "-cp",
                System.getProperty("java.class.path"), mainClass.getName());
        builder.redirectErrorStream(true);
        long start = System.nanoTime();
        Process process = builder.start();
        String output;
        try (InputStream in = process.getInputStream()) {
            output = new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
        int exit = process.waitFor();
        long processNanos = System.nanoTime() - start;
        int at = output.lastIndexOf(MARKER);
        if (exit != 0 || at < 0) {
            throw new IllegalStateException(mainClass.getName() + " exited " + exit + " without "
                    + MARKER + " (expected: exit 0 and the marker); output:\n" + output);
        }
        String value = output.substring(at + MARKER.length()).lines().findFirst().orElse("").strip();
        return new Run(Long.parseLong(value), processNanos);
    }

    public static void main(String[] args) throws IOException, InterruptedException {
        int runs = args.length > 0 ? Integer.parseInt(args[0]) : 11;
        List<Run> weft = new ArrayList<>();
        List<Run> dubbo = new ArrayList<>();
        for (int i = 0; i < runs; i++) {
            weft.add(runOnce(WeftColdStart.class));
            dubbo.add(runOnce(DubboColdStart.class));
        }
        System.out.printf(Locale.ROOT, "%-6s %5s %22s %22s%n", "", "runs", "main->first call (ms)", "whole process (ms)");
        BenchmarkResults results = BenchmarkResults.start("cold-start", args).put("providers", PROVIDERS);
        print("weft", weft, results);
        print("dubbo", dubbo, results);
        results.write();
    }

    private static void print(String framework, List<Run> runs, BenchmarkResults results) {
        long[] first = runs.stream().mapToLong(Run::firstCallNanos).sorted().toArray();
        long[] whole = runs.stream().mapToLong(Run::processNanos).sorted().toArray();
        System.out.printf(Locale.ROOT, "%-6s %5d %22.1f %22.1f%n", framework, runs.size(),
                median(first) / 1e6, median(whole) / 1e6);
        results.add("frameworks", BenchmarkResults.row("framework", framework, "runs", runs.size(),
                "firstCallMsMedian", median(first) / 1e6, "processMsMedian", median(whole) / 1e6,
                "firstCallMs", runs.stream().map(run -> run.firstCallNanos() / 1e6).toList(),
                "processMs", runs.stream().map(run -> run.processNanos() / 1e6).toList()));
    }

    static double median(long[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2.0;
    }
}
