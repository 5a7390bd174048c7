package dev.weft.rpc.examples;

import dev.weft.rpc.common.RpcException;

import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicReference;

/**
 * One tour provider's injected outage, applied by {@link TourOutageFilter} to each attempt a tour
 * consumer makes at the provider: at the provider's failure rate (a seeded draw per attempt) the
 * attempt fails with {@link #failure()}, as when the provider cannot be reached. Counts the
 * attempts at the provider and those that failed into the counters installed by
 * {@link #countInto}, so each tour scenario has its own. Thread-safe.
 */
final class TourOutage {

    private final String providerName;
    private final double failRate;
    private final SplittableRandom draws;
    private final AtomicReference<ProviderCounters> counters = new AtomicReference<>(new ProviderCounters());

    TourOutage(ProviderSpec spec, long seed) {
        Objects.requireNonNull(spec, "spec");
        this.providerName = spec.name();
        this.failRate = spec.failRate();
        this.draws = new SplittableRandom(~seed);
    }

    /** Counts the calls from now on into {@code next} (calls already running keep their counters). */
    void countInto(ProviderCounters next) {
        counters.set(Objects.requireNonNull(next, "next"));
    }

    /** Counts an attempt at the provider; true when the draw fails it (then counted as failed too). */
    boolean fails() {
        ProviderCounters current = counters.get();
        current.attempted();
        if (failRate <= 0) {
            return false;
        }
        boolean failed;
        synchronized (draws) {
            failed = draws.nextDouble() < failRate;
        }
        if (failed) {
            current.failed();
        }
        return failed;
    }

    /**
     * The failure a failed attempt ends with: a network failure, as when the provider is
     * unreachable. The cluster's strategies react to it as to a real one (failover retries it,
     * failfast throws it, failsafe swallows it, failback retries it later), and it is not the
     * {@code NOT_PROCESSED} refusal that every strategy retries once elsewhere.
     */
    RpcException failure() {
        return new RpcException(RpcException.NETWORK_EXCEPTION,
                "provider " + providerName + ": injected outage (fail rate " + failRate + ")");
    }
}
