package dev.weft.rpc.benchmarks;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.LongAdder;

/**
 * The network cost of the observability modules, side by side in one run: two pairs of a provider
 * {@code Weft} and a consumer {@code Weft} over {@code weft} on 127.0.0.1 in this JVM, one with
 * nothing bound and one with both modules bound ({@link ObservedWefts}); 64 closed-loop callers
 * call one pair for a phase, then the other, alternating, so the machine's load drifts over both
 * alike. Prints calls/s per phase and the ratio of the medians (the bar: bound >= 0.95x unbound).
 * What is bound ({@link ObservedWefts.Binding}): {@code both} (metrics, and tracing with every span
 * sampled; the default), {@code metrics}, or {@code sampled} (metrics, and tracing a tenth of the
 * traces with a parent-based ratio sampler).
 *
 * <pre>java -cp rpc-benchmarks/target/benchmarks.jar dev.weft.rpc.benchmarks.ObservedNetworkRun [seconds per phase] [rounds] [both|metrics|sampled]</pre>
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
        BenchmarkResults results = BenchmarkResults.start("observed-network-" + binding.name().toLowerCase(Locale.ROOT), args)
                .put("binding", binding.name().toLowerCase(Locale.ROOT)).put("secondsPerPhase", seconds).put("callers", CALLERS);
        try (ObservedWefts plain = new ObservedWefts(ObservedWefts.Binding.OFF, "weft");
             ObservedWefts observed = new ObservedWefts(binding, "weft")) {
            run(plain.greeter, 3);
            run(observed.greeter, 3);
            for (int round = 1; round <= rounds; round++) {
                double a = run(plain.greeter, seconds);
                double b = run(observed.greeter, seconds);
                off.add(a);
                both.add(b);
                double load = java.lang.management.ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
                System.out.printf(Locale.ROOT, "round %d: unbound %,.0f calls/s, %s bound %,.0f calls/s (%.3fx), load %.2f%n",
                        round, a, binding, b, b / a, load);
                results.add("rounds", BenchmarkResults.row("round", round, "unboundCallsPerS", a, "boundCallsPerS", b,
                        "loadAverage", load));
            }
            System.out.printf(Locale.ROOT, "median: unbound %,.0f calls/s, %s bound %,.0f calls/s: %.3fx (spans exported: %,d)%n",
                    median(off), binding, median(both), median(both) / median(off), observed.spansExported());
            results.put("medianUnboundCallsPerS", median(off)).put("medianBoundCallsPerS", median(both))
                    .put("spansExported", observed.spansExported());
        }
        results.write();
    }

    /** 64 callers calling {@code greeter} for {@code seconds}; calls per second. */
    private static double run(Greeter greeter, int seconds) throws InterruptedException {
        LongAdder calls = new LongAdder();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        CountDownLatch done = new CountDownLatch(CALLERS);
        long start = System.nanoTime();
        for (int i = 0; i < CALLERS; i++) {
            String argument = Workload.argument(i);
            Thread caller = new Thread(() -> {
                try {
                    while (System.nanoTime() < end) {
                        greeter.greet(argument);
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
        return calls.sum() * 1e9 / (System.nanoTime() - start);
    }

    private static double median(List<Double> values) {
        List<Double> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2;
    }
}
