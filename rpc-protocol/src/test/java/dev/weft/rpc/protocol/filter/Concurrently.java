package dev.weft.rpc.protocol.filter;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

/** Runs tasks on their own threads with a bound on the wait; always shuts its threads down. */
final class Concurrently implements AutoCloseable {

    private final ExecutorService executor;
    private final List<Future<?>> futures = new ArrayList<>();

    Concurrently(int threads) {
        executor = Executors.newFixedThreadPool(threads);
    }

    <V> Future<V> submit(Callable<V> task) {
        Future<V> future = executor.submit(task);
        futures.add(future);
        return future;
    }

    /** Waits for every task (at most 60 s in all), rethrowing the first failure. */
    void awaitAll() throws Exception {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        for (Future<?> future : futures) {
            future.get(Math.max(1, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
        }
    }

    @Override
    public void close() throws InterruptedException {
        executor.shutdownNow();
        if (!executor.awaitTermination(10, TimeUnit.SECONDS)) {
            throw new AssertionError("test threads did not stop");
        }
    }
}
