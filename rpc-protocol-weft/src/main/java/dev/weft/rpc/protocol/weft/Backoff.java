package dev.weft.rpc.protocol.weft;

import java.util.Random;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Reconnect delays: {@code initial * 2^attempt} capped at {@code max}, each multiplied by a random
 * factor in {@code [1 - jitter, 1 + jitter)} so that consumers of a restarted provider do not
 * reconnect in step. The random source is injected (seeded in tests). Thread-safe when the random
 * source is ({@link Random} is).
 */
final class Backoff {

    private final long initialMillis;
    private final long maxMillis;
    private final double jitter;
    private final Random random;

    Backoff(long initialMillis, long maxMillis, double jitter, Random random) {
        checkArgument(initialMillis > 0, "initial backoff: %s ms (expected: > 0)", initialMillis);
        checkArgument(maxMillis >= initialMillis, "max backoff: %s ms (expected: >= initial %s)", maxMillis, initialMillis);
        checkArgument(jitter >= 0 && jitter < 1, "jitter: %s (expected: in [0, 1))", jitter);
        this.initialMillis = initialMillis;
        this.maxMillis = maxMillis;
        this.jitter = jitter;
        this.random = random;
    }

    /** The delay before reconnect attempt {@code attempt} (0 for the first after a loss). */
    long delayMillis(int attempt) {
        long base = attempt >= 30 ? maxMillis : Math.min(maxMillis, initialMillis << attempt);
        double factor = 1 - jitter + 2 * jitter * random.nextDouble();
        return Math.max(1, Math.round(base * factor));
    }
}
