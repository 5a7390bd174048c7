package dev.weft.rpc.examples;

import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * A provider's implementation: answers like {@link GreetingServiceImpl} after a simulated
 * processing time drawn uniformly from 0.5x to 1.5x the provider's mean latency (seeded).
 * Thread-safe: the random source is split under a lock, the sleep runs unlocked.
 */
final class LatentGreetingService implements GreetingService {

    private final GreetingServiceImpl answers;
    private final long latencyNanos;
    private final SplittableRandom random;

    LatentGreetingService(String providerName, long latencyNanos, long seed) {
        this.answers = new GreetingServiceImpl(Objects.requireNonNull(providerName, "providerName"));
        this.latencyNanos = latencyNanos;
        this.random = new SplittableRandom(seed);
    }

    @Override
    public String greet(String name) {
        if (latencyNanos > 0) {
            long pause;
            synchronized (random) {
                pause = latencyNanos / 2 + random.nextLong(latencyNanos + 1);
            }
            try {
                TimeUnit.NANOSECONDS.sleep(pause);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while serving " + name, e);
            }
        }
        return answers.greet(name);
    }
}
