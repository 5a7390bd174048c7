package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
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

    private final Supplier<? extends RandomGenerator> random;

    public LeastActiveLoadBalance() {
        this(ThreadLocalRandom::current);
    }

    /** A balancer breaking ties with {@code random} (tests pass a seeded generator). */
    public LeastActiveLoadBalance(Supplier<? extends RandomGenerator> random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    @Override
    protected <T> Picker<T> newPicker(List<Invoker<T>> invokers, URL url, String method, CallStats stats) {
        Weights weights = weights(invokers, method, stats);
        InvokerStats[] counters = new InvokerStats[invokers.size()];
        for (int i = 0; i < counters.length; i++) {
            counters[i] = stats.get(invokers.get(i));
        }
        LowestScore.Score inFlight = (index, now) -> counters[index].inFlight();
        return invocation -> {
            WeightTable table = weights.current();
            int index = LowestScore.pick(table, inFlight, 0, random.get());
            if (index < 0) {
                throw noEligible(url, invocation.getMethodName(), table);
            }
            return invokers.get(index);
        };
    }
}
