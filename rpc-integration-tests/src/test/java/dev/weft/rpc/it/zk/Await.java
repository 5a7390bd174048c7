package dev.weft.rpc.it.zk;

import java.time.Duration;
import java.util.function.BooleanSupplier;

/** Polls a condition with a loose deadline (two busy cores): fails naming what did not happen. */
final class Await {

    private Await() {
    }

    static void until(BooleanSupplier condition, Duration timeout, String what) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("not within " + timeout + ": " + what);
            }
            Thread.sleep(10);
        }
    }
}
