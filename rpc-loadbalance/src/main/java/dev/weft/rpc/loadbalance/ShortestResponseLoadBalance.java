package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * {@code shortestresponse}: the invoker with the least expected latency × (in-flight + 1), ties
 * broken by weighted random choice; weight-0 invokers are skipped unless all weights are 0.
 *
 * <p>Expected latency ({@link InvokerStats#expectedLatencyNanos(long)}) is the average successful
 * latency in the last 10 to 20 s divided by the success rate, so failures count against an invoker.
 * An invoker without samples scores a latency of one nanosecond × (in-flight + 1): it is tried rather than starved.
 * Every list it is given, a lone invoker included, asks the cluster to time its invokers' calls
 * ({@link InvokerStats#timeLatency()}), so a provider that served alone is not taken for an untried one.
 *
 * <p>O(n) per pick (one clock read), no allocation. Thread-safe.
 */
public final class ShortestResponseLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "shortestresponse";
    private static final int MAX_COUNTED_IN_FLIGHT = 1 << 20;

    public ShortestResponseLoadBalance() {
    }

    /** A balancer breaking ties with {@code random} (tests pass a seeded generator). */
    public ShortestResponseLoadBalance(Supplier<? extends RandomGenerator> random) {
        super(random);
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
        InvokerStats[] counters = stats.getAll(invokers);
        LowestScore.Score score = (index, now) -> {
            InvokerStats s = counters[index];
            long expected = s.expectedLatencyNanos(now);
            return (expected < 0 ? 1 : expected) * (Math.min(s.inFlight(), MAX_COUNTED_IN_FLIGHT) + 1L);
        };
        return new LowestScore<>(invokers, url, Weights.read(invokers, method, stats), score, stats.ticker()::read, this::random);
    }
}
