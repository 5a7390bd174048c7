package dev.weft.rpc.it.zk;

import com.google.common.util.concurrent.RateLimiter;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.Function;
import java.util.function.Supplier;

/**
 * Calls a service from a few threads until {@link #stop()} or a time limit, optionally at a
 * bounded total rate, counting answers by kind and keeping the first failures. Every loop is
 * bounded: each thread stops at the time limit even if nobody calls {@code stop()}.
 */
final class CallLoad implements AutoCloseable {

    private static final int KEPT_FAILURES = 10;

    private final Supplier<String> call;
    private final Function<String, String> kindOf;
    private final RateLimiter limiter;
    private final AtomicBoolean running = new AtomicBoolean(true);
    private final LongAdder calls = new LongAdder();
    private final AtomicLong failures = new AtomicLong();
    private final ConcurrentLinkedQueue<Throwable> firstFailures = new ConcurrentLinkedQueue<>();
    private final Map<String, LongAdder> kinds = new ConcurrentHashMap<>();
    private final CountDownLatch done;
    private final List<Thread> threads = new ArrayList<>();

    private CallLoad(Supplier<String> call, Function<String, String> kindOf, int threadCount, double callsPerSecond,
                     Duration limit) {
        this.call = call;
        this.kindOf = kindOf;
        this.limiter = callsPerSecond > 0 ? RateLimiter.create(callsPerSecond) : null;
        this.done = new CountDownLatch(threadCount);
        long deadline = System.nanoTime() + limit.toNanos();
        for (int i = 0; i < threadCount; i++) {
            Thread thread = new Thread(() -> run(deadline), "call-load-" + i);
            thread.setDaemon(true);
            threads.add(thread);
        }
        threads.forEach(Thread::start);
    }

    /**
     * Starts {@code threadCount} callers of {@code call}; {@code kindOf} maps each answer to the
     * kind it is counted under and throws {@link AssertionError} for an answer that is wrong.
     * {@code callsPerSecond <= 0} means as fast as the callers go.
     */
    static CallLoad start(Supplier<String> call, Function<String, String> kindOf, int threadCount,
                          double callsPerSecond, Duration limit) {
        return new CallLoad(Objects.requireNonNull(call, "call"), Objects.requireNonNull(kindOf, "kindOf"),
                threadCount, callsPerSecond, limit);
    }

    private void run(long deadline) {
        try {
            while (running.get() && System.nanoTime() - deadline < 0) {
                if (limiter != null) {
                    limiter.acquire();
                }
                try {
                    String kind = kindOf.apply(call.get());
                    kinds.computeIfAbsent(kind, k -> new LongAdder()).increment();
                } catch (RuntimeException | AssertionError e) {
                    failures.incrementAndGet();
                    if (firstFailures.size() < KEPT_FAILURES) {
                        firstFailures.add(e);
                    }
                }
                calls.increment();
            }
        } finally {
            done.countDown();
        }
    }

    long calls() {
        return calls.sum();
    }

    long failures() {
        return failures.get();
    }

    /** Calls answered with {@code kind} so far. */
    long count(String kind) {
        LongAdder adder = kinds.get(kind);
        return adder == null ? 0 : adder.sum();
    }

    /** Waits until {@code kind} has been answered {@code more} more times than now, or the timeout passes. */
    boolean awaitMore(String kind, long more, Duration timeout) throws InterruptedException {
        long target = count(kind) + more;
        long deadline = System.nanoTime() + timeout.toNanos();
        while (count(kind) < target) {
            if (System.nanoTime() - deadline > 0 || done.getCount() == 0) {
                return false;
            }
            Thread.sleep(5);
        }
        return true;
    }

    List<Throwable> firstFailures() {
        return List.copyOf(firstFailures);
    }

    /** Stops the callers and waits for them; true when all ended within the timeout. */
    boolean stop(Duration timeout) throws InterruptedException {
        running.set(false);
        return done.await(timeout.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Stops the callers, waiting up to 30 s for them. */
    @Override
    public void close() {
        try {
            stop(Duration.ofSeconds(30));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public String toString() {
        return "CallLoad{calls=" + calls() + ", failures=" + failures() + ", kinds=" + kinds + ", first="
                + firstFailures + "}";
    }
}
