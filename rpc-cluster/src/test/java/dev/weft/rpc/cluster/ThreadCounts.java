package dev.weft.rpc.cluster;

import java.util.concurrent.TimeUnit;

/** Live threads by name prefix, for leak checks. */
final class ThreadCounts {

    private ThreadCounts() {
    }

    static long alive(String prefix) {
        return Thread.getAllStackTraces().keySet().stream()
                .filter(t -> t.isAlive() && t.getName().startsWith(prefix))
                .count();
    }

    /** Waits up to 5 s for the live threads named {@code prefix...} to drop to {@code expected}. */
    static long awaitAlive(String prefix, long expected) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
        long alive = alive(prefix);
        while (alive != expected && System.nanoTime() < deadline) {
            Thread.sleep(10);
            alive = alive(prefix);
        }
        return alive;
    }
}
