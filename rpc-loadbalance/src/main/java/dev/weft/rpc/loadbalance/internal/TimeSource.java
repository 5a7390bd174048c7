package dev.weft.rpc.loadbalance.internal;

/**
 * The clocks a balancer reads: a monotonic one for statistics windows and EWMA, the wall clock for
 * warm-up (provider {@code timestamp} is wall time). Injected so tests can drive time exactly.
 * Implementations must be thread-safe.
 */
public interface TimeSource {

    /** The system clocks. */
    TimeSource SYSTEM = new TimeSource() {
        @Override
        public long nanoTime() {
            return System.nanoTime();
        }

        @Override
        public long currentTimeMillis() {
            return System.currentTimeMillis();
        }
    };

    /** Monotonic nanoseconds, as {@link System#nanoTime()}. */
    long nanoTime();

    /** Wall-clock milliseconds since the epoch, as {@link System#currentTimeMillis()}. */
    long currentTimeMillis();
}
