package dev.weft.rpc.protocol.weft;

import java.util.concurrent.atomic.AtomicLong;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * The bytes of large request bodies one server holds at once, across all its connections: bodies
 * still arriving (partial frames) and bodies of calls decoded and not yet answered (their decoded
 * arguments live that long). A body that does not fit is refused, not buffered, so peers that
 * trickle big uploads or send many big arguments cannot exhaust the provider's memory together.
 * Thread-safe.
 */
final class RequestBudget {

    private final long limit;
    private final AtomicLong used = new AtomicLong();

    /** @param limit bytes; positive */
    RequestBudget(long limit) {
        checkArgument(limit > 0, "limit: %s (expected: > 0)", limit);
        this.limit = limit;
    }

    /** Takes {@code bytes} when they fit; false (nothing taken) when they do not. */
    boolean tryReserve(long bytes) {
        long now;
        do {
            now = used.get();
            if (now + bytes > limit) {
                return false;
            }
        } while (!used.compareAndSet(now, now + bytes));
        return true;
    }

    void release(long bytes) {
        used.addAndGet(-bytes);
    }

    long used() {
        return used.get();
    }

    long limit() {
        return limit;
    }
}
