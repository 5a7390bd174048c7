package dev.weft.rpc.benchmarks;

import io.opentelemetry.sdk.trace.export.SpanExporter;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.IntFunction;

/**
 * The network cost of the observability modules, side by side in one run: two pairs of a provider
 * {@code Weft} and a consumer {@code Weft} over {@code weft} on 127.0.0.1 in this JVM, one with
 * nothing bound and one with both modules bound ({@link ObservedWefts}); 64 closed-loop callers
 * call one pair for a phase, then the other, alternating, so the machine's load drifts over both
 * alike. Prints calls/s per phase and the ratio of the medians (the bar: bound >= 0.95x unbound).
 * What is bound ({@link ObservedWefts.Binding}): {@code both} (metrics, and tracing with every span
 * sampled; the default), {@code metrics}, {@code sampled} (metrics, and tracing a tenth of the
 * traces with a parent-based ratio sampler) or {@code unsampled} (metrics, and tracing that samples
 * no trace: what carrying the trace context costs).
 *
 * <p>Each phase also reports the process's CPU time per call (both ends and the callers share this
 * JVM). With the cores saturated, throughput follows it, and it moves far less from round to round
 * than calls/s do on a shared machine: the medians of both give the cost of what is bound. A third
 * phase, after the rounds, runs only what the libraries themselves do for a call ({@link InstrumentationFloor}:
 * Micrometer's three timers and, when tracing, the SDK's three spans and two hops) on as many threads,
 * with no Weft and no network: unbound plus that is the floor of the bound figure, whatever Weft
 * does around the libraries.
 *
 * <pre>java -cp rpc-benchmarks/target/benchmarks.jar dev.weft.rpc.benchmarks.ObservedNetworkRun [seconds per phase] [rounds] [both|metrics|sampled|unsampled]</pre>
 */
public final class ObservedNetworkRun {

    private static final int CALLERS = 64;

    private ObservedNetworkRun() {
    }

    public static void main(String[] args) throws Exception {
        int seconds = args.length > 0 ? Integer.parseInt(args[0]) : 10;
        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        ObservedWefts.Binding binding = ObservedWefts.Binding.of(args.length > 2 ? args[2] : "both");
        List<Double> off = new ArrayList<>();
        List<Double> both = new ArrayList<>();
        List<Double> offCpu = new ArrayList<>();
        List<Double> bothCpu = new ArrayList<>();
        BenchmarkResults results = BenchmarkResults.start("observed-network-" + binding.name().toLowerCase(Locale.ROOT), args)
                .put("binding", binding.name().toLowerCase(Locale.ROOT)).put("secondsPerPhase", seconds).put("callers", CALLERS);
        List<Double> floorCpu = new ArrayList<>();
        try (ObservedWefts plain = new ObservedWefts(ObservedWefts.Binding.OFF, "weft");
             ObservedWefts observed = new ObservedWefts(binding, "weft");
             InstrumentationFloor floor = new InstrumentationFloor(binding, SpanExporter.composite())) {
            run(plain.greeter, 3);
            run(observed.greeter, 3);
            for (int round = 1; round <= rounds; round++) {
                Phase a = run(plain.greeter, seconds);
                Phase b = run(observed.greeter, seconds);
                off.add(a.callsPerSecond());
                both.add(b.callsPerSecond());
                offCpu.add(a.cpuMicrosPerCall());
                bothCpu.add(b.cpuMicrosPerCall());
                double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
                System.out.printf(Locale.ROOT, "round %d: unbound %,.0f calls/s %.2f us CPU/call, %s bound %,.0f calls/s"
                                + " %.2f us CPU/call (%.3fx), load %.2f%n", round, a.callsPerSecond(), a.cpuMicrosPerCall(),
                        binding, b.callsPerSecond(), b.cpuMicrosPerCall(), b.callsPerSecond() / a.callsPerSecond(), load);
                results.add("rounds", BenchmarkResults.row("round", round, "unboundCallsPerS", a.callsPerSecond(),
                        "boundCallsPerS", b.callsPerSecond(), "unboundCpuMicrosPerCall", a.cpuMicrosPerCall(),
                        "boundCpuMicrosPerCall", b.cpuMicrosPerCall(), "loadAverage", load));
            }
            // after the rounds, so that its garbage and its JIT work fall in no phase of the pairs
            run(floor, seconds); // its code is new to the JIT here: a longer warm-up than the pairs'
            for (int round = 1; round <= rounds; round++) {
                Phase libraries = run(floor, Math.max(1, seconds / 2));
                floorCpu.add(libraries.cpuMicrosPerCall());
                System.out.printf(Locale.ROOT, "the libraries alone, round %d: %.2f us CPU/call%n", round,
                        libraries.cpuMicrosPerCall());
                results.add("libraryRounds", BenchmarkResults.row("round", round, "cpuMicrosPerCall",
                        libraries.cpuMicrosPerCall()));
            }
            System.out.printf(Locale.ROOT, "median: unbound %,.0f calls/s, %s bound %,.0f calls/s: %.3fx (spans exported: %,d)%n",
                    median(off), binding, median(both), median(both) / median(off), observed.spansExported());
            System.out.printf(Locale.ROOT, "median CPU per call: unbound %.2f us, %s bound %.2f us: unbound / bound %.3fx%n",
                    median(offCpu), binding, median(bothCpu), median(offCpu) / median(bothCpu));
            double floorRatio = median(offCpu) / (median(offCpu) + median(floorCpu));
            System.out.printf(Locale.ROOT, "median CPU per call of the libraries alone: %.2f us; the floor (unbound with"
                    + " only that added): %.3fx%n", median(floorCpu), floorRatio);
            results.put("medianLibrariesCpuMicrosPerCall", median(floorCpu)).put("floorRatio", floorRatio);
            results.put("medianUnboundCallsPerS", median(off)).put("medianBoundCallsPerS", median(both))
                    .put("medianUnboundCpuMicrosPerCall", median(offCpu)).put("medianBoundCpuMicrosPerCall", median(bothCpu))
                    .put("spansExported", observed.spansExported());
        }
        results.write();
    }

    /** One phase: calls per second, and this process's CPU time per call in microseconds. */
    private record Phase(double callsPerSecond, double cpuMicrosPerCall) {
    }

    /** 64 callers calling {@code greeter} for {@code seconds}. */
    private static Phase run(Greeter greeter, int seconds) throws InterruptedException {
        return runCalls(caller -> {
            String argument = Workload.argument(caller);
            return () -> greeter.greet(argument);
        }, seconds);
    }

    /** 64 threads doing the libraries' work of one call at a time for {@code seconds}. */
    private static Phase run(InstrumentationFloor floor, int seconds) throws InterruptedException {
        return runCalls(caller -> floor::call, seconds);
    }

    /** 64 threads, each running the call {@code callOf} gives it (by its index) in a loop for {@code seconds}. */
    private static Phase runCalls(IntFunction<Runnable> callOf, int seconds) throws InterruptedException {
        LongAdder calls = new LongAdder();
        long cpuStart = processCpuNanos();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch done = new CountDownLatch(CALLERS);
        long start = System.nanoTime();
        for (int i = 0; i < CALLERS; i++) {
            Runnable call = callOf.apply(i);
            Thread caller = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        call.run();
                        calls.increment();
                    }
                } finally {
                    done.countDown();
                }
            }, "observed-caller-" + i);
            caller.setDaemon(true);
            caller.start();
        }
        // each caller's last call ends within its timeout after the phase
        if (!done.await(seconds + 60L, TimeUnit.SECONDS)) {
            throw new IllegalStateException("callers still running 60 s after the phase ended");
        }
        long elapsed = System.nanoTime() - start;
        long cpu = processCpuNanos() - cpuStart;
        long total = calls.sum();
        return new Phase(total * 1e9 / elapsed, cpu / 1e3 / Math.max(1, total));
    }

    private static long processCpuNanos() {
        return ((com.sun.management.OperatingSystemMXBean) java.lang.management.ManagementFactory.getOperatingSystemMXBean())
                .getProcessCpuTime();
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
