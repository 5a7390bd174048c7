package dev.weft.rpc.examples;

import java.util.concurrent.atomic.LongAdder;

/** What one tour provider saw: attempts that reached it and how many failed. Thread-safe. */
final class ProviderCounters {

    private final LongAdder attempts = new LongAdder();
    private final LongAdder failures = new LongAdder();

    void attempted() {
        attempts.increment();
    }

    void failed() {
        failures.increment();
    }

    long attempts() {
        return attempts.sum();
    }

    long failures() {
        return failures.sum();
    }
}
