package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.internal.SnapshotCache;
import dev.weft.rpc.loadbalance.internal.TimeSource;
import dev.weft.rpc.loadbalance.internal.WeightTable;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * {@code leastactive}: the invoker with the fewest calls in flight ({@link InvokerStats#inFlight()},
 * recorded by the cluster around every call); ties are broken by weighted random choice. Invokers
 * of weight 0 are skipped unless all weights are 0.
 *
 * <p>One O(n) scan of the statistics cached per invoker list, then one over the scores it wrote
 * ({@link LowestScoreTies}), without allocation. Thread-safe.
 */
public class LeastActiveLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "leastactive";

    private final Supplier<? extends RandomGenerator> random;
    private final SnapshotCache<InvokerSnapshot> snapshots;

    public LeastActiveLoadBalance() {
        this(TimeSource.SYSTEM, ThreadLocalRandom::current);
    }

    LeastActiveLoadBalance(TimeSource time, Supplier<? extends RandomGenerator> random) {
        super(time);
        this.random = Objects.requireNonNull(random, "random");
        this.snapshots = new SnapshotCache<>(list -> new InvokerSnapshot(list, time, InvokerSnapshot.Reads.IN_FLIGHT));
    }

    @Override
    protected <T> Invoker<T> doSelect(List<Invoker<T>> invokers, URL url, Invocation invocation) {
        InvokerSnapshot snapshot = snapshots.get(invokers);
        WeightTable weights = snapshot.weights(invocation.getMethodName());
        InvokerStats[] stats = snapshot.stats;
        int n = snapshot.size;
        LowestScoreTies lowest = LowestScoreTies.start(n);
        long[] scores = lowest.scores;
        long best = LowestScoreTies.NOT_ELIGIBLE;
        for (int i = 0; i < n; i++) {
            long score = weights.isEligible(i) ? stats[i].inFlightCount() : LowestScoreTies.NOT_ELIGIBLE;
            scores[i] = score;
            best = Math.min(best, score);
        }
        return invokers.get(lowest.pick(n, best, weights, random.get()));
    }
}
