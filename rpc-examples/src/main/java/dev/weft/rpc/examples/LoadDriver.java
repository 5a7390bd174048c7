package dev.weft.rpc.examples;

import com.google.common.base.Preconditions;

import java.util.Objects;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Drives {@code calls} calls of {@link GreetingService#greet} from {@code threads} threads and
 * tallies what came back. Call {@code i} greets {@code "call-i"}, so an answer is a provider's
 * exactly when it is {@code "call-i@<provider>"}.
 *
 * <p>Each {@link #run} owns a fresh pool that is shut down before it returns: no thread outlives
 * the scenario. The calling thread redraws the progress bar while it waits.
 */
final class LoadDriver {

    private static final long REDRAW_MILLIS = 100;

    private final int calls;
    private final int threads;

    LoadDriver(int calls, int threads) {
        Preconditions.checkArgument(calls > 0, "calls: %s (expected: > 0)", calls);
        Preconditions.checkArgument(threads > 0, "threads: %s (expected: > 0)", threads);
        this.calls = calls;
        this.threads = threads;
    }

    /**
     * Makes the calls and waits for all of them.
     *
     * @throws InterruptedException when the waiting thread is interrupted (the callers are then
     *         interrupted and the pool is shut down)
     */
    CallTally run(GreetingService service, ProgressBar progress, String label) throws InterruptedException {
        Objects.requireNonNull(service, "service");
        CallTally tally = new CallTally(calls);
        AtomicInteger tickets = new AtomicInteger();
        ExecutorService pool = Executors.newFixedThreadPool(threads, callerThreads(label));
        try {
            for (int t = 0; t < threads; t++) {
                pool.execute(() -> callUntilDone(service, tickets, tally, progress));
            }
            pool.shutdown();
            while (!pool.awaitTermination(REDRAW_MILLIS, TimeUnit.MILLISECONDS)) {
                progress.draw(label);
            }
            progress.draw(label);
        } finally {
            pool.shutdownNow();
        }
        return tally;
    }

    private void callUntilDone(GreetingService service, AtomicInteger tickets, CallTally tally, ProgressBar progress) {
        for (int i = tickets.getAndIncrement(); i < calls; i = tickets.getAndIncrement()) {
            String name = "call-" + i;
            long start = System.nanoTime();
            CallTally.Outcome outcome;
            Throwable error = null;
            try {
                String answer = service.greet(name);
                outcome = answer == null ? CallTally.Outcome.EMPTY
                        : GreetingServiceImpl.isProviderAnswer(name, answer) ? CallTally.Outcome.OK
                        : CallTally.Outcome.MOCKED;
            } catch (RuntimeException | Error e) {
                outcome = CallTally.Outcome.FAILED;
                error = e;
            }
            tally.record(i, outcome, System.nanoTime() - start);
            if (error != null) {
                tally.error(error);
            }
            progress.advance();
        }
    }

    private static ThreadFactory callerThreads(String label) {
        AtomicInteger number = new AtomicInteger();
        return runnable -> {
            Thread thread = new Thread(runnable, "playground-caller-" + number.incrementAndGet() + " [" + label + "]");
            thread.setDaemon(true);
            return thread;
        };
    }
}
