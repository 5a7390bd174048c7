package dev.weft.rpc.loadbalance;

import dev.weft.rpc.loadbalance.internal.TimeSource;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** Both clocks, advanced only by the test. Thread-safe. */
final class FakeTime implements TimeSource {

    private final AtomicLong nanos = new AtomicLong(TimeUnit.HOURS.toNanos(1));
    private final AtomicLong millis = new AtomicLong(1_700_000_000_000L);

    @Override
    public long nanoTime() {
        return nanos.get();
    }

    @Override
    public long currentTimeMillis() {
        return millis.get();
    }

    void advanceMillis(long delta) {
        advanceNanos(TimeUnit.MILLISECONDS.toNanos(delta));
    }

    void advanceNanos(long delta) {
        long ms = nanos.addAndGet(delta);
        millis.set(1_700_000_000_000L + TimeUnit.NANOSECONDS.toMillis(ms - TimeUnit.HOURS.toNanos(1)));
    }
}
