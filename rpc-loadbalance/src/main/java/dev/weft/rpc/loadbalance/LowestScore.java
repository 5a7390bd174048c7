package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.function.LongSupplier;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * The picker shared by the score-driven balancers: the eligible invoker with the lowest score, ties
 * broken by weighted random choice.
 *
 * <p>One pass over live counters finds the lowest score, its ties and their weight, without
 * allocation. When every eligible invoker ties (all idle, say) the draw is the weight table's own
 * weighted pick; otherwise a second pass draws among the ties. A counter that moved between the
 * passes can make the drawn tie vanish; the last tie of the first pass is then taken, which is a
 * tie a moment ago. Scores are read at {@code clock}'s time (a constant clock for scores that read
 * none). Thread-safe.
 */
record LowestScore<T>(List<Invoker<T>> invokers, URL url, Weights weights, Score score, LongSupplier clock,
                      Supplier<RandomGenerator> random) implements Picker<T> {

    /** The score of invoker {@code index} at time {@code nowNanos}; lower is better. */
    @FunctionalInterface
    interface Score {
        long of(int index, long nowNanos);
    }

    @Override
    public Invoker<T> pick(Invocation invocation) {
        WeightTable table = weights.current();
        int index = lowest(table, clock.getAsLong());
        if (index < 0) {
            throw AbstractLoadBalance.noEligible(url, invocation.getMethodName(), table);
        }
        return invokers.get(index);
    }

    private int lowest(WeightTable table, long nowNanos) {
        int n = table.size();
        long best = Long.MAX_VALUE;
        int ties = 0;
        int lastTie = -1;
        long tiedWeight = 0;
        for (int i = 0; i < n; i++) {
            int weight = table.effectiveWeight(i);
            if (weight == 0) {
                continue;
            }
            long s = score.of(i, nowNanos);
            if (s < best) {
                best = s;
                ties = 1;
                lastTie = i;
                tiedWeight = weight;
            } else if (s == best) {
                ties++;
                lastTie = i;
                tiedWeight += weight;
            }
        }
        if (ties <= 1) {
            return lastTie;
        }
        if (tiedWeight == table.total()) {
            return table.pick(random.get());
        }
        long draw = random.get().nextLong(tiedWeight);
        for (int i = 0; i < n; i++) {
            int weight = table.effectiveWeight(i);
            if (weight > 0 && score.of(i, nowNanos) == best) {
                draw -= weight;
                if (draw < 0) {
                    return i;
                }
            }
        }
        return lastTie;
    }
}
