package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * {@code p2c}: power of two choices. Draws two distinct invokers at random (weighted, so weight-0
 * invokers are never drawn unless all are 0) and takes the one with the lower
 * peak-EWMA latency × (in-flight + 1).
 *
 * <p>Peak EWMA: {@link InvokerStats#peakEwmaNanos(long, long)}, decayed over idle time with the time
 * constant {@value #DECAY_KEY} (consumer URL, method level first, ms, default 10000), read when the
 * picker is built. Both candidates are decayed to the later of their last samples, so no clock is
 * read per pick and an idle invoker's estimate shrinks relative to a busy one (it is probed again).
 * An invoker with no history takes the other's estimate, so in-flight counts decide. Building a
 * picker asks the cluster to time its invokers' calls ({@link InvokerStats#timeLatency()}).
 *
 * <p>O(1) per pick (O(log n) when weights differ). Thread-safe.
 */
public final class P2cLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "p2c";
    /** EWMA decay time constant in milliseconds (consumer URL, method level first). */
    public static final String DECAY_KEY = "p2c.decay";
    public static final long DEFAULT_DECAY_MILLIS = 10_000;

    public P2cLoadBalance() {
    }

    /** A balancer drawing from {@code random} (tests pass a seeded generator). */
    public P2cLoadBalance(Supplier<? extends RandomGenerator> random) {
        super(random);
    }

    @Override
    protected void checkSettings(URL url, String method) {
        decayNanos(url, method);
    }

    private static long decayNanos(URL url, String method) {
        return TimeUnit.MILLISECONDS.toNanos(
                new MethodSettings(url, method).getLong(DECAY_KEY, DEFAULT_DECAY_MILLIS, 1, TimeUnit.DAYS.toMillis(365)));
    }

    /** Times the calls of every invoker it is given, a lone one included (see the class comment). */
    @Override
    protected void prepare(List<? extends Invoker<?>> invokers, CallStats stats) {
        for (InvokerStats counter : stats.getAll(invokers)) {
            counter.timeLatency();
        }
    }

    @Override
    protected <T> Picker<T> newPicker(List<Invoker<T>> invokers, URL url, String method, CallStats stats) {
        long decayNanos = decayNanos(url, method);
        Weights weights = Weights.read(invokers, method, stats);
        InvokerStats[] counters = stats.getAll(invokers);
        return invocation -> {
            WeightTable table = weights.current();
            RandomGenerator rnd = random();
            int a = table.pick(rnd);
            if (a < 0) {
                throw noEligible(url, invocation.getMethodName(), table);
            }
            int b = table.pickOther(rnd, a);
            return invokers.get(b == a ? a : better(counters[a], counters[b], decayNanos) ? a : b);
        };
    }

    /** Whether {@code first} scores at most {@code second}. */
    private static boolean better(InvokerStats first, InvokerStats second, long decayNanos) {
        long now = Math.max(first.lastSampleNanos(), second.lastSampleNanos());
        double costA = first.peakEwmaNanos(now, decayNanos);
        double costB = second.peakEwmaNanos(now, decayNanos);
        if (costA < 0) {
            costA = costB < 0 ? 1 : costB;
        }
        if (costB < 0) {
            costB = costA;
        }
        int inFlightA = first.inFlight();
        int inFlightB = second.inFlight();
        double scoreA = costA * (inFlightA + 1.0);
        double scoreB = costB * (inFlightB + 1.0);
        return scoreA != scoreB ? scoreA < scoreB : inFlightA <= inFlightB;
    }
}
