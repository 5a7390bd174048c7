package dev.weft.rpc.registry;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Runs a refresh task serially and coalesces requests: requests made while a refresh runs cause
 * exactly one more run, which reads the inputs as they are then. So the task always applies the
 * latest inputs, never two at once, and a burst of N changes costs at most two runs. A run that
 * throws an {@link Error} ends the drain (the error reaches the executor's thread); the next
 * request starts a new one. Thread-safe.
 */
final class CoalescingRefresher {

    private static final Logger log = LoggerFactory.getLogger(CoalescingRefresher.class);

    private final Executor executor;
    private final Runnable task;
    private final AtomicInteger requests = new AtomicInteger();

    CoalescingRefresher(Executor executor, Runnable task) {
        this.executor = executor;
        this.task = task;
    }

    /** Asks for a run that will see every input recorded before this call. */
    void request() {
        if (requests.getAndIncrement() == 0) {
            try {
                executor.execute(this::drain);
            } catch (RejectedExecutionException e) {
                requests.set(0);
                log.warn("Refresh not scheduled: executor {} rejected it", executor, e);
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
