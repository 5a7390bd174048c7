package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * {@code leastactive}: the invoker with the fewest calls in flight ({@link InvokerStats#inFlight()},
 * counted by the cluster around every call from the first one), ties broken by weighted random
 * choice. Weight-0 invokers are skipped unless all weights are 0. O(n) per pick, no allocation.
 * Thread-safe.
 */
public final class LeastActiveLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "leastactive";

    public LeastActiveLoadBalance() {
    }

    /** A balancer breaking ties with {@code random} (tests pass a seeded generator). */
    public LeastActiveLoadBalance(Supplier<? extends RandomGenerator> random) {
        super(random);
    }

    @Override
    protected <T> Picker<T> newPicker(List<Invoker<T>> invokers, URL url, String method, CallStats stats) {
        InvokerStats[] counters = stats.getAll(invokers);
        return new LowestScore<>(invokers, url, Weights.read(invokers, method, stats), (index, now) -> counters[index].inFlight(),
                () -> 0, this::random);
    }
}
