package dev.weft.rpc.loadbalance;

import com.google.common.base.Ticker;
import dev.weft.rpc.spi.ExtensionDirector;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** A ticker advanced only by the test, and directors reading it. Thread-safe. */
final class FakeTicker extends Ticker {

    private final AtomicLong nanos = new AtomicLong(TimeUnit.HOURS.toNanos(1));

    @Override
    public long read() {
        return nanos.get();
    }

    void advanceMillis(long millis) {
        nanos.addAndGet(TimeUnit.MILLISECONDS.toNanos(millis));
    }

    void advanceNanos(long delta) {
        nanos.addAndGet(delta);
    }

    /** A fresh director on this ticker. */
    ExtensionDirector director() {
        return new ExtensionDirector(FakeTicker.class.getClassLoader(), this);
    }

    /** The statistics of a fresh director on this ticker. */
    CallStats stats() {
        return CallStats.of(director());
    }
}
