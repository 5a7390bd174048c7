package dev.weft.rpc.loadbalance;

import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.internal.SmoothRoundRobin;
import dev.weft.rpc.loadbalance.internal.SnapshotCache;
import dev.weft.rpc.loadbalance.internal.TimeSource;
import dev.weft.rpc.loadbalance.internal.WeightTable;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * {@code roundrobin}: smooth weighted round robin (nginx's algorithm). Weights 5,1,1 for a,b,c give
 * exactly {@code a a b a c a a}, repeating; ties go to the earlier invoker; each method of a service
 * has its own sequence.
 *
 * <p>Per pick: O(1), one atomic increment on a schedule precomputed per invoker list, method and
 * weight table (see {@link SmoothRoundRobin}); while a provider warms up, or when the total weight
 * is huge, an O(n) step under a per-state lock instead. Both are exact under concurrent callers.
 *
 * <p>A copy of a list (same providers in the same order with the same weights) continues the very
 * same sequence. When the invoker list or a weight changes, the invokers that stay keep their current values
 * (matched by provider address {@code protocol://host:port/path}); the values of invokers that left
 * are dropped. The carry-over between lists is remembered per service and method in a bounded
 * cache (at most {@value #MAX_GROUPS} entries, dropped after 10 minutes without a list change).
 * Thread-safe.
 */
public class RoundRobinLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "roundrobin";
    static final int MAX_GROUPS = 4096;

    private final SnapshotCache<Snapshot> snapshots;
    private final Cache<String, MethodState> latestByGroup = CacheBuilder.newBuilder()
            .maximumSize(MAX_GROUPS).expireAfterAccess(Duration.ofMinutes(10)).build();

    public RoundRobinLoadBalance() {
        this(TimeSource.SYSTEM);
    }

    RoundRobinLoadBalance(TimeSource time) {
        super(time);
        this.snapshots = new SnapshotCache<>(list -> new Snapshot(new InvokerSnapshot(list, time, InvokerSnapshot.Reads.NOTHING)));
    }

    @Override
    protected <T> Invoker<T> doSelect(List<Invoker<T>> invokers, URL url, Invocation invocation) {
        Snapshot snapshot = snapshots.get(invokers);
        String method = invocation.getMethodName();
        WeightTable table = snapshot.base.weights(method);
        MethodState state = snapshot.states.get(method == null ? "" : method);
        if (state == null || state.table != table) {
            state = snapshot.rebuild(method == null ? "" : method, table, url);
        }
        return invokers.get(state.roundRobin.next());
    }

    private final class Snapshot {
        final InvokerSnapshot base;
        final String[] keys;
        final ConcurrentMap<String, MethodState> states = new ConcurrentHashMap<>(4);

        Snapshot(InvokerSnapshot base) {
            this.base = base;
            this.keys = new String[base.size];
            for (int i = 0; i < keys.length; i++) {
                URL provider = base.providers[i];
                keys[i] = provider.getProtocol() + "://" + provider.getAddress() + "/" + provider.getPath();
            }
        }

        synchronized MethodState rebuild(String method, WeightTable table, URL url) {
            MethodState previous = states.get(method);
            if (previous != null && previous.table == table) {
                return previous;
            }
            String group = url.getServiceInterface() + "#" + method;
            if (previous == null) {
                previous = latestByGroup.getIfPresent(group);
            }
            int[] weights = table.weights();
            boolean stable = table.refreshAtMillis() == Long.MAX_VALUE;
            SmoothRoundRobin roundRobin;
            if (previous == null) {
                roundRobin = stable ? SmoothRoundRobin.of(weights) : SmoothRoundRobin.continuing(weights, new long[weights.length], false);
            } else if (Arrays.equals(previous.keys, keys) && Arrays.equals(previous.table.weights(), weights)) {
                // a copy of the list (same providers, same order, same weights): share the sequence
                roundRobin = previous.roundRobin;
            } else {
                roundRobin = SmoothRoundRobin.continuing(weights, carriedValues(previous), stable);
            }
            MethodState state = new MethodState(table, keys, roundRobin);
            states.put(method, state);
            latestByGroup.put(group, state);
            return state;
        }

        private long[] carriedValues(MethodState previous) {
            long[] values = previous.roundRobin.currentValues();
            Map<String, Long> byKey = new HashMap<>();
            for (int i = 0; i < previous.keys.length; i++) {
                byKey.putIfAbsent(previous.keys[i], values[i]);
            }
            long[] carried = new long[keys.length];
            for (int i = 0; i < keys.length; i++) {
                carried[i] = byKey.getOrDefault(keys[i], 0L);
            }
            return carried;
        }
    }

    private static final class MethodState {
        final WeightTable table;
        final String[] keys;
        final SmoothRoundRobin roundRobin;

        MethodState(WeightTable table, String[] keys, SmoothRoundRobin roundRobin) {
            this.table = table;
            this.keys = keys;
            this.roundRobin = roundRobin;
        }
    }
}
