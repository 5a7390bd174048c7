package dev.weft.rpc.registry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Runs a refresh task serially and coalesces requests: requests made while a refresh runs cause
 * exactly one more run, which reads the inputs as they are then. So the task always applies the
 * latest inputs, never two at once, and a burst of N changes costs at most two runs. A run that
 * throws an {@link Error} ends the drain (the error reaches the executor's thread); the next
 * request starts a new one. A request the executor rejects (shut down, full) is dropped and
 * logged, rate-limited with a count; the next request tries again. Thread-safe.
 */
final class CoalescingRefresher {

    private final Logger log;
    private final Executor executor;
    private final Runnable task;
    private final AtomicInteger requests = new AtomicInteger();
    /** Requests the executor refused, for the rate-limited log (1st, 2nd, 4th… time). */
    private final AtomicLong rejections = new AtomicLong();

    CoalescingRefresher(Executor executor, Runnable task) {
        this(executor, task, LoggerFactory.getLogger(CoalescingRefresher.class));
    }

    CoalescingRefresher(Executor executor, Runnable task, Logger log) {
        this.executor = executor;
        this.task = task;
        this.log = log;
    }

    /** Asks for a run that will see every input recorded before this call. */
    void request() {
        if (requests.getAndIncrement() == 0) {
            try {
                executor.execute(this::drain);
            } catch (RejectedExecutionException e) {
                requests.set(0);
                long n = rejections.incrementAndGet();
                if (Long.bitCount(n) == 1) {
                    log.warn("Refresh not scheduled: executor {} rejected it; the next request tries again"
                            + " ({} rejected so far)", executor, n);
                }
            }
        }
    }

    private void drain() {
        int seen;
        do {
            seen = requests.get();
            try {
                task.run();
            } catch (RuntimeException e) {
                log.warn("Refresh failed; the last state keeps serving", e);
            } catch (Error e) {
                // Left to the executor's thread, but the next request must start a run again.
                requests.set(0);
                throw e;
            }
        } while (!requests.compareAndSet(seen, 0));
    }
}
