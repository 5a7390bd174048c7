package dev.weft.rpc.examples;

import dev.weft.rpc.common.RpcException;

import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * A tour provider's implementation, exported over {@code weft}: each call waits the provider's
 * latency (as {@link LatentGreetingService}) and then, at the provider's failure rate (seeded
 * draw), throws {@code RpcException(NETWORK_EXCEPTION)}, which is how a provider reports that it
 * could not serve a call because a link it depends on failed. The exception crosses the wire with
 * its code, and the consumer's cluster treats it like a network failure of its own (failover
 * retries it elsewhere, failfast throws it, failsafe swallows it), unlike a business exception.
 *
 * <p>Counts the calls that reached it and those it failed into the counters installed by
 * {@link #countInto}, so each tour scenario has its own. Thread-safe.
 */
final class TourGreetingService implements GreetingService {

    private final String providerName;
    private final double failRate;
    private final LatentGreetingService answers;
    private final SplittableRandom failures;
    private final AtomicReference<ProviderCounters> counters = new AtomicReference<>(new ProviderCounters());

    TourGreetingService(ProviderSpec spec, long seed) {
        Objects.requireNonNull(spec, "spec");
        this.providerName = spec.name();
        this.failRate = spec.failRate();
        this.answers = new LatentGreetingService(spec.name(), spec.latencyNanos(), seed);
        this.failures = new SplittableRandom(~seed);
    }

    /** Counts the calls from now on into {@code next} (calls already running keep their counters). */
    void countInto(ProviderCounters next) {
        counters.set(Objects.requireNonNull(next, "next"));
    }

    @Override
    public String greet(String name) {
        ProviderCounters current = counters.get();
        current.attempted();
        boolean fail;
        synchronized (failures) {
            fail = failRate > 0 && failures.nextDouble() < failRate;
        }
        String answer = answers.greet(name);
        if (fail) {
            current.failed();
            throw new RpcException(RpcException.NETWORK_EXCEPTION,
                    "provider " + providerName + ": injected network failure (fail rate " + failRate + ")");
        }
        return answer;
    }
}
