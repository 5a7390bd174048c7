package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.List;

/**
 * {@code roundrobin}: smooth weighted round robin (nginx's algorithm). Weights 5,1,1 for a,b,c give
 * exactly {@code a a b a c a a}, repeating; ties go to the earlier invoker; each method has its own
 * sequence, and each directory state starts a fresh one.
 *
 * <p>Each pick adds every eligible invoker's weight to its current value, takes the largest (ties:
 * the earlier invoker) and subtracts the total weight from it: O(n) under the picker's lock, so
 * shares are exact under any number of concurrent callers. While a provider warms up its weight
 * moves and the current values carry over. Weight-0 invokers are never picked unless all weights
 * are 0 (then all count as 1). Thread-safe.
 */
public final class RoundRobinLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "roundrobin";

    @Override
    protected <T> Picker<T> newPicker(List<Invoker<T>> invokers, URL url, String method, CallStats stats) {
        Weights weights = Weights.read(invokers, method, stats);
        long[] current = new long[invokers.size()]; // the sequence of this state and method, guarded by itself
        return invocation -> {
            WeightTable table = weights.current();
            int best = -1;
            synchronized (current) {
                long bestValue = Long.MIN_VALUE;
                for (int i = 0; i < current.length; i++) {
                    int weight = table.effectiveWeight(i);
                    if (weight > 0) {
                        current[i] += weight;
                        if (current[i] > bestValue) {
                            bestValue = current[i];
                            best = i;
                        }
                    }
                }
                if (best >= 0) {
                    current[best] -= table.total();
                }
            }
            if (best < 0) {
                throw noEligible(url, invocation.getMethodName(), table);
            }
            return invokers.get(best);
        };
    }
}
