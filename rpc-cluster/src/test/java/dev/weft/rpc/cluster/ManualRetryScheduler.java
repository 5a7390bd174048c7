package dev.weft.rpc.cluster;

import dev.weft.rpc.cluster.internal.Cancellable;
import dev.weft.rpc.cluster.internal.RetryScheduler;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.RejectedExecutionException;

/** A {@link RetryScheduler} driven by the test: nothing runs until {@link #runDue()}. */
final class ManualRetryScheduler implements RetryScheduler {

    private final List<Entry> entries = new ArrayList<>();
    private final List<Long> delays = new ArrayList<>();
    private boolean closed;

    @Override
    public synchronized Cancellable schedule(Runnable task, long delayMillis) {
        if (closed) {
            throw new RejectedExecutionException("closed");
        }
        Entry entry = new Entry(task);
        entries.add(entry);
        delays.add(delayMillis);
        return () -> entry.cancelled = true;
    }

    /** Runs every task scheduled so far (not those they schedule); returns how many ran. */
    int runDue() {
        List<Entry> due;
        synchronized (this) {
            due = new ArrayList<>(entries);
            entries.clear();
        }
        int ran = 0;
        for (Entry entry : due) {
            if (!entry.cancelled) {
                entry.task.run();
                ran++;
            }
        }
        return ran;
    }

    synchronized int scheduled() {
        return (int) entries.stream().filter(e -> !e.cancelled).count();
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
        entries.forEach(e -> e.cancelled = true);
        entries.clear();
    }

    private static final class Entry {
        final Runnable task;
        volatile boolean cancelled;

        Entry(Runnable task) {
            this.task = task;
        }
    }
}
