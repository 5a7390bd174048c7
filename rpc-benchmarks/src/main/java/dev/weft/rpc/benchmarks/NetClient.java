package dev.weft.rpc.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * The load generator JVM: {@code NetClient weft|weft-async|dubbo|echo <port> <seconds>}. Connects
 * (one shared connection), makes the first call and prints as soon as it is answered (the parent
 * times the process from its launch to that line); then reports the time from the end of the JVM's
 * own initialisation ({@code RuntimeMXBean.getStartTime()}) to that answer and the process's CPU
 * time until then. Warms up, then runs 1 and 64 closed-loop callers for {@code seconds} each with a
 * 64-byte string argument; for {@code weft-async}, one caller thread keeps 1, then 64 calls in
 * flight, starting the next call as each answer arrives (the answers are handed to it through a
 * queue, so every call starts on that one thread). Latency is from a call's start to its answer.
 * Prints one {@code key=value} line per measurement for {@link NetworkBenchmark}.
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
        NetSide side = target.side();
        AsyncGreeter async = side instanceof WeftAsyncSide asyncSide ? asyncSide.connectAsync(port) : null;
        Greeter greeter = async != null ? WeftAsyncSide.waitingFor(async) : side.connect(port);
        greeter.greet(ARGUMENT);
        long answeredMillis = System.currentTimeMillis();
        System.out.println("first-call-answered");
        System.out.flush();
        // Read only now, so that the management classes load after the first answer.
        System.out.println("first-call-cpu-ms="
                + ProcessHandle.current().info().totalCpuDuration().map(Duration::toMillis).orElse(-1L));
        System.out.println("first-call-after-init-ms=" + (answeredMillis - ManagementFactory.getRuntimeMXBean().getStartTime()));

        if (async != null) {
            runInFlight(async, 64, Math.max(2, seconds / 2));
        } else {
            run(greeter, 64, Math.max(2, seconds / 2));
        }
        for (int callers : new int[] {1, 64}) {
            long[] result = async != null ? runInFlight(async, callers, seconds) : run(greeter, callers, seconds);
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
        return summarize(latencies, counts, totals, System.nanoTime() - begin);
    }

    /**
     * One thread keeps {@code inFlight} calls outstanding for {@code seconds}: it starts them, then
     * starts one more each time an answer is handed back to it. Returns {calls per second, p50 µs, p99 µs}.
     */
    private static long[] runInFlight(AsyncGreeter greeter, int inFlight, int seconds) throws InterruptedException {
        int capacity = 4_000_000;
        long[][] latencies = {new long[capacity]};
        long[] started = new long[inFlight];
        BlockingQueue<Integer> answered = new ArrayBlockingQueue<>(inFlight);
        long begin = System.nanoTime();
        long end = begin + TimeUnit.SECONDS.toNanos(seconds);
        for (int slot = 0; slot < inFlight; slot++) {
            start(greeter, slot, started, answered);
        }
        int n = 0;
        long total = 0;
        int outstanding = inFlight;
        while (outstanding > 0) {
            int slot = answered.take();
            long now = System.nanoTime();
            if (n < capacity) {
                latencies[0][n++] = now - started[slot];
            }
            total++;
            if (now < end) {
                start(greeter, slot, started, answered);
            } else {
                outstanding--;
            }
        }
        return summarize(latencies, new int[] {n}, new long[] {total}, System.nanoTime() - begin);
    }

    /** Starts a call in {@code slot}; its answer hands the slot back to the caller thread. */
    private static void start(AsyncGreeter greeter, int slot, long[] started, BlockingQueue<Integer> answered) {
        started[slot] = System.nanoTime();
        greeter.greet(ARGUMENT).whenComplete((answer, failure) -> {
            if (failure != null) {
                failure.printStackTrace();
                System.exit(1);
            }
            answered.add(slot);
        });
    }

    /** {calls per second, p50 µs, p99 µs} of the recorded latencies and call totals. */
    private static long[] summarize(long[][] latencies, int[] counts, long[] totals, long elapsed) {
        long calls = Arrays.stream(totals).sum();
        int recorded = Arrays.stream(counts).sum();
        long[] all = new long[recorded];
        int at = 0;
        for (int t = 0; t < counts.length; t++) {
            System.arraycopy(latencies[t], 0, all, at, counts[t]);
            at += counts[t];
        }
        Arrays.sort(all);
        long p50 = all[(int) (all.length * 0.50)] / 1000;
        long p99 = all[Math.min(all.length - 1, (int) (all.length * 0.99))] / 1000;
        return new long[] {calls * 1_000_000_000L / elapsed, p50, p99};
    }
}
