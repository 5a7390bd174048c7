package dev.weft.rpc.cluster;

import dev.weft.rpc.cluster.internal.RetryScheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.FutureTask;
import java.util.concurrent.RejectedExecutionException;

/** A {@link RetryScheduler} driven by the test: nothing runs until {@link #runDue()}. */
final class ManualRetryScheduler implements RetryScheduler {

    private final List<FutureTask<?>> entries = new ArrayList<>();
    private final List<Long> delays = new ArrayList<>();
    private boolean closed;

    @Override
    public synchronized Future<?> schedule(Runnable task, long delayMillis) {
        if (closed) {
            throw new RejectedExecutionException("closed");
        }
        FutureTask<?> entry = new FutureTask<>(task, null);
        entries.add(entry);
        delays.add(delayMillis);
        return entry;
    }

    /** Runs every task scheduled so far (not those they schedule); returns how many ran. */
    int runDue() {
        List<FutureTask<?>> due;
        synchronized (this) {
            due = new ArrayList<>(entries);
            entries.clear();
        }
        int ran = 0;
        for (FutureTask<?> entry : due) {
            if (!entry.isCancelled()) {
                entry.run();
                ran++;
            }
        }
        return ran;
    }

    synchronized int scheduled() {
        return (int) entries.stream().filter(e -> !e.isCancelled()).count();
    }

    synchronized List<Long> delays() {
        return List.copyOf(delays);
    }

    @Override
    public synchronized boolean isClosed() {
        return closed;
    }

    @Override
    public synchronized void close() {
        closed = true;
        entries.forEach(e -> e.cancel(false));
        entries.clear();
    }
}
