package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * {@code random}: weighted random choice, uniform when all weights are equal.
 *
 * <p>Per pick: one bounded random draw when the weights are equal (and nothing warms up), else a
 * binary search of the cumulative weights. Thread-safe.
 */
public final class RandomLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "random";

    public RandomLoadBalance() {
    }

    /** A balancer drawing from {@code random} (tests pass a seeded generator). */
    public RandomLoadBalance(Supplier<? extends RandomGenerator> random) {
        super(random);
    }

    @Override
    protected <T> Picker<T> newPicker(List<Invoker<T>> invokers, URL url, String method, CallStats stats) {
        Weights weights = Weights.read(invokers, method, stats);
        WeightTable first = weights.current();
        if (first.isUniform() && first.refreshAtMillis() == Long.MAX_VALUE) {
            int size = invokers.size();
            return invocation -> invokers.get(random().nextInt(size));
        }
        return invocation -> {
            WeightTable table = weights.current();
            int index = table.pick(random());
            if (index < 0) {
                throw noEligible(url, invocation.getMethodName(), table);
            }
            return invokers.get(index);
        };
    }
}
