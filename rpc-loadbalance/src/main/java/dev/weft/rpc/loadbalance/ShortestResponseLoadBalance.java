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
 * {@code shortestresponse}: the invoker with the least expected latency × (in-flight + 1); ties
 * are broken by weighted random choice; weight-0 invokers are skipped unless all weights are 0.
 *
 * <p>Expected latency is the average successful latency in the statistics window (the last 10 to
 * 20 s) divided by the window's success rate, so failures count against an invoker and a node
 * that fails fast does not attract traffic (an invoker whose calls all failed scores as ~18 min).
 * An invoker without samples in the window scores 1 ns × (in-flight + 1): it is tried rather than
 * starved, and stays tried until its first call completes. Latency is recorded only for invokers
 * a latency-reading balancer has seen ({@link InvokerStats#trackLatency()}): this balancer turns
 * it on when it first sees a list, so an invoker's history starts with its first call after that.
 *
 * <p>"Now" for the window is the latest window period in which any invoker of the list finished a
 * call, so no clock is read per pick: samples older than the previous period relative to the
 * freshest invoker count as none, and an invoker left idle is probed again.
 *
 * <p>Two O(n) scans of the statistics cached per invoker list, then one over the scores written
 * ({@link LowestScoreTies}), without allocation. Thread-safe.
 */
public class ShortestResponseLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "shortestresponse";
    private static final int MAX_COUNTED_IN_FLIGHT = 1 << 20;

    private final Supplier<? extends RandomGenerator> random;
    private final SnapshotCache<InvokerSnapshot> snapshots;

    public ShortestResponseLoadBalance() {
        this(TimeSource.SYSTEM, ThreadLocalRandom::current);
    }

    ShortestResponseLoadBalance(TimeSource time, Supplier<? extends RandomGenerator> random) {
        super(time);
        this.random = Objects.requireNonNull(random, "random");
        this.snapshots = new SnapshotCache<>(list -> new InvokerSnapshot(list, time, InvokerSnapshot.Reads.LATENCY));
    }

    @Override
    protected <T> Invoker<T> doSelect(List<Invoker<T>> invokers, URL url, Invocation invocation) {
        InvokerSnapshot snapshot = snapshots.get(invokers);
        WeightTable weights = snapshot.weights(invocation.getMethodName());
        InvokerStats[] stats = snapshot.stats;
        int n = snapshot.size;
        long epoch = Long.MIN_VALUE;
        for (int i = 0; i < n; i++) {
            epoch = Math.max(epoch, stats[i].sampleEpoch());
        }
        LowestScoreTies lowest = LowestScoreTies.start(n);
        long[] scores = lowest.scores;
        long best = LowestScoreTies.NOT_ELIGIBLE;
        for (int i = 0; i < n; i++) {
            long score = LowestScoreTies.NOT_ELIGIBLE;
            if (weights.isEligible(i)) {
                InvokerStats s = stats[i];
                long expected = s.expectedLatencyNanos(epoch);
                score = (expected < 0 ? 1 : expected) * (Math.min(s.inFlightCount(), MAX_COUNTED_IN_FLIGHT) + 1L);
            }
            scores[i] = score;
            best = Math.min(best, score);
        }
        return invokers.get(lowest.pick(n, best, weights, random.get()));
    }
}
