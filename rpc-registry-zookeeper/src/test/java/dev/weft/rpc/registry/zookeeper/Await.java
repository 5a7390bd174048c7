package dev.weft.rpc.registry.zookeeper;

import java.time.Duration;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** Polls a condition with a loose, bounded deadline (two busy cores). */
final class Await {

    static final Duration LONG = Duration.ofSeconds(20);

    private Await() {
    }

    static void until(String what, BooleanSupplier condition) {
        until(what, LONG, condition, () -> "");
    }

    static void until(String what, BooleanSupplier condition, Supplier<Object> state) {
        until(what, LONG, condition, state);
    }

    static void until(String what, Duration limit, BooleanSupplier condition, Supplier<Object> state) {
        long deadline = System.nanoTime() + limit.toNanos();
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("Not reached within " + limit + ": " + what + "; state: " + state.get());
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new AssertionError("interrupted while waiting for " + what, e);
            }
        }
    }
}
