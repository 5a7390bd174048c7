package dev.weft.rpc.examples;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;

import java.util.Objects;
import java.util.concurrent.locks.LockSupport;
import java.util.random.RandomGenerator;

/**
 * The network between the consumer and one provider: every call waits a simulated latency
 * (uniform in [0.5, 1.5] × the provider's mean, drawn from a seeded source), then either fails
 * with {@code RpcException(NETWORK_EXCEPTION)} at the provider's failure rate or reaches the
 * provider's invoker. Failures are discovered after the round trip, so they cost latency too.
 *
 * <p>Thread-safe when the random source is (the playground uses a seeded {@link java.util.Random},
 * which is). An interrupted wait (a forking call cancelled as a loser) ends the call with an
 * {@code RpcException} and keeps the interrupt flag.
 */
final class SimulatedNetworkInvoker<T> implements Invoker<T> {

    private final Invoker<T> provider;
    private final ProviderSpec spec;
    private final RandomGenerator random;
    private final ProviderCounters counters;
    private volatile boolean destroyed;

    SimulatedNetworkInvoker(Invoker<T> provider, ProviderSpec spec, RandomGenerator random, ProviderCounters counters) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.spec = Objects.requireNonNull(spec, "spec");
        this.random = Objects.requireNonNull(random, "random");
        this.counters = Objects.requireNonNull(counters, "counters");
    }

    @Override
    public Class<T> getInterface() {
        return provider.getInterface();
    }

    @Override
    public URL getUrl() {
        return provider.getUrl();
    }

    @Override
    public boolean isAvailable() {
        return !destroyed && provider.isAvailable();
    }

    @Override
    public void destroy() {
        destroyed = true;
        provider.destroy();
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        counters.attempted();
        long latency = spec.latencyNanos() == 0 ? 0 : (long) (spec.latencyNanos() * (0.5 + random.nextDouble()));
        boolean fail = spec.failRate() > 0 && random.nextDouble() < spec.failRate();
        if (!await(latency)) {
            counters.failed();
            throw new RpcException(RpcException.NETWORK_EXCEPTION,
                    "call to provider " + spec.name() + " cancelled while in flight (" + getUrl() + ")");
        }
        if (fail) {
            counters.failed();
            throw new RpcException(RpcException.NETWORK_EXCEPTION,
                    "simulated network failure calling provider " + spec.name() + " (" + getUrl() + ")");
        }
        return provider.invoke(invocation);
    }

    /** Waits {@code nanos}; false when interrupted (the flag is kept). */
    private static boolean await(long nanos) {
        long deadline = System.nanoTime() + nanos;
        for (long left = nanos; left > 0; left = deadline - System.nanoTime()) {
            LockSupport.parkNanos(left);
            if (Thread.currentThread().isInterrupted()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public String toString() {
        return "SimulatedNetworkInvoker[" + spec.name() + " " + getUrl() + "]";
    }
}
