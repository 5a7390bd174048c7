package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.internal.SnapshotCache;
import dev.weft.rpc.loadbalance.internal.TimeSource;
import dev.weft.rpc.loadbalance.internal.UniformIndex;
import dev.weft.rpc.loadbalance.internal.WeightTable;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * {@code random}: weighted random choice, uniform when all weights are equal.
 *
 * <p>O(1) for equal weights, else O(log n) (binary search of cached cumulative weights). Weights
 * are computed once per invoker list instance (and during warm-up at most every few ms); for the
 * last list seen with equal, settled weights a pick is a single bounded random draw
 * ({@link UniformIndex}, no division).
 * Thread-safe.
 */
public class RandomLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "random";

    private final Supplier<? extends RandomGenerator> random;
    private final SnapshotCache<InvokerSnapshot> snapshots;

    public RandomLoadBalance() {
        this(TimeSource.SYSTEM, ThreadLocalRandom::current);
    }

    RandomLoadBalance(TimeSource time, Supplier<? extends RandomGenerator> random) {
        super(time);
        this.random = Objects.requireNonNull(random, "random");
        this.snapshots = new SnapshotCache<>(list -> new InvokerSnapshot(list, time, InvokerSnapshot.Reads.NOTHING));
    }

    @Override
    protected <T> Invoker<T> doSelect(List<Invoker<T>> invokers, URL url, Invocation invocation) {
        InvokerSnapshot snapshot = snapshots.get(invokers);
        if (snapshot.uniformSettled) {
            // the list's own size (the snapshot's, as the cache checked): the draw does not wait for the snapshot read
            return invokers.get(UniformIndex.draw(random.get(), invokers.size()));
        }
        WeightTable weights = snapshot.weights(invocation.getMethodName());
        if (weights.isUniform() && weights.refreshAtMillis() == Long.MAX_VALUE && !snapshot.weighsPerMethod()) {
            snapshot.uniformSettled = true;
        }
        return invokers.get(weights.pick(random.get()));
    }
}
