package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.internal.SmoothRoundRobin;

import java.util.List;

/**
 * {@code roundrobin}: smooth weighted round robin (nginx's algorithm). Weights 5,1,1 for a,b,c give
 * exactly {@code a a b a c a a}, repeating; ties go to the earlier invoker; each method has its own
 * sequence, and each directory state starts a fresh one.
 *
 * <p>Per pick: one atomic increment on a schedule precomputed when the picker is built (see
 * {@link SmoothRoundRobin}); while a provider warms up, an O(n) step under a lock, continuing from
 * the current values when the weights move. Exact under concurrent callers. Thread-safe.
 */
public final class RoundRobinLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "roundrobin";

    @Override
    protected <T> Picker<T> newPicker(List<Invoker<T>> invokers, URL url, String method, CallStats stats) {
        Weights weights = weights(invokers, method, stats);
        WeightTable first = weights.current();
        if (!first.hasEligible()) {
            return invocation -> {
                throw noEligible(url, invocation.getMethodName(), first);
            };
        }
        if (first.refreshAtMillis() == Long.MAX_VALUE) {
            SmoothRoundRobin roundRobin = SmoothRoundRobin.of(eligibleWeights(first));
            return invocation -> invokers.get(roundRobin.next());
        }
        WarmingRoundRobin warming = new WarmingRoundRobin(weights, first);
        return invocation -> invokers.get(warming.next());
    }

    /** The weights smooth round robin runs on: a left-out provider weighs 0, all-zero weights count as 1. */
    private static int[] eligibleWeights(WeightTable table) {
        int[] weights = new int[table.size()];
        for (int i = 0; i < weights.length; i++) {
            weights[i] = table.isEligible(i) ? table.effectiveWeight(i) : 0;
        }
        return weights;
    }

    /** Round robin whose weights move during warm-up; the current values carry over each move. */
    private static final class WarmingRoundRobin {
        private final Weights weights;
        private WeightTable table;
        private SmoothRoundRobin roundRobin;

        WarmingRoundRobin(Weights weights, WeightTable first) {
            this.weights = weights;
            this.table = first;
            int[] initial = eligibleWeights(first);
            this.roundRobin = SmoothRoundRobin.continuing(initial, new long[initial.length]);
        }

        synchronized int next() {
            WeightTable current = weights.current();
            if (current != table) {
                table = current;
                roundRobin = SmoothRoundRobin.continuing(eligibleWeights(current), roundRobin.currentValues());
            }
            return roundRobin.next();
        }
    }
}
