package dev.weft.rpc.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The load generator JVM: {@code NetClient weft|dubbo|echo <port> <seconds>}. Connects (one shared
 * connection), makes the first call and prints as soon as it is answered (the parent times the
 * process from its launch to that line); then reports the time from the end of the JVM's own
 * initialisation ({@code RuntimeMXBean.getStartTime()}) to that answer and the process's CPU time
 * until then. Warms up, then runs 1 and 64 closed-loop callers for {@code seconds} each with a
 * 64-byte string argument. Prints one {@code key=value} line per measurement for
 * {@link NetworkBenchmark}.
 */
public final class NetClient {

    /** The argument of every call: 64 ASCII bytes. */
    static final String ARGUMENT = "x".repeat(64);

    private NetClient() {
    }

    public static void main(String[] args) throws Exception {
        NetTarget target = NetTarget.of(args[0]);
        int port = Integer.parseInt(args[1]);
        int seconds = Integer.parseInt(args[2]);
        Greeter greeter = target.side().connect(port);
        greeter.greet(ARGUMENT);
        long answeredMillis = System.currentTimeMillis();
        System.out.println("first-call-answered");
        System.out.flush();
        // Read only now, so that the management classes load after the first answer.
        System.out.println("first-call-cpu-ms="
                + ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(-1L));
        System.out.println("first-call-after-init-ms=" + (answeredMillis - ManagementFactory.getRuntimeMXBean().getStartTime()));

        run(greeter, 64, Math.max(2, seconds / 2));
        for (int callers : new int[] {1, 64}) {
            long[] result = run(greeter, callers, seconds);
            System.out.printf(Locale.ROOT, "callers=%d calls-per-s=%d p50-us=%d p99-us=%d%n",
                    callers, result[0], result[1], result[2]);
        }
        System.out.flush();
        System.exit(0);
    }

    /** Returns {calls per second, p50 µs, p99 µs}. */
    private static long[] run(Greeter greeter, int callers, int seconds) throws InterruptedException {
        AtomicBoolean stop = new AtomicBoolean();
        int capacity = 4_000_000 / callers;
        long[][] latencies = new long[callers][capacity];
        int[] counts = new int[callers];
        long[] totals = new long[callers];
        List<Thread> threads = new ArrayList<>();
        for (int t = 0; t < callers; t++) {
            int index = t;
            Thread thread = new Thread(() -> {
                long[] mine = latencies[index];
                int n = 0;
                long total = 0;
                while (!stop.get()) {
                    long start = System.nanoTime();
                    greeter.greet(ARGUMENT);
                    long took = System.nanoTime() - start;
                    if (n < mine.length) {
                        mine[n++] = took;
                    }
                    total++;
                }
                counts[index] = n;
                totals[index] = total;
            });
            threads.add(thread);
        }
        long begin = System.nanoTime();
        threads.forEach(Thread::start);
        Thread.sleep(TimeUnit.SECONDS.toMillis(seconds));
        stop.set(true);
        for (Thread thread : threads) {
            thread.join();
        }
        long elapsed = System.nanoTime() - begin;
        long calls = Arrays.stream(totals).sum();
        int recorded = Arrays.stream(counts).sum();
        long[] all = new long[recorded];
        int at = 0;
        for (int t = 0; t < callers; t++) {
            System.arraycopy(latencies[t], 0, all, at, counts[t]);
            at += counts[t];
        }
        Arrays.sort(all);
        long p50 = all[(int) (all.length * 0.50)] / 1000;
        long p99 = all[Math.min(all.length - 1, (int) (all.length * 0.99))] / 1000;
        return new long[] {calls * 1_000_000_000L / elapsed, p50, p99};
    }
}
