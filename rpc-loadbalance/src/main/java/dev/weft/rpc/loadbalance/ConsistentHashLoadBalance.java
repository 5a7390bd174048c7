package dev.weft.rpc.loadbalance;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.internal.HashRing;
import dev.weft.rpc.loadbalance.internal.KeyHash;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code consistenthash}: calls with the same key go to the same provider, and a provider joining
 * or leaving moves only the keys it gains or owned.
 *
 * <p>Key: the arguments at {@value #ARGUMENTS_KEY} (comma-separated indexes, default {@code 0};
 * consumer URL, method level first), each as {@code String.valueOf}, hashed with the stable
 * {@link KeyHash}. Ring: {@value #NODES_KEY} virtual nodes per provider address (default 160, at
 * most 10000) at {@code KeyHash.of(host:port + "#" + i)}, built once per picker, so a key maps to
 * the same address whichever list order or subset the ring is built from. Weights and warm-up do
 * not apply: key affinity is the point of this balancer.
 *
 * <p>Bounded load (optional): with {@value #LOAD_FACTOR_KEY} = f (a number ≥ 1, e.g. 1.25), a
 * provider whose in-flight calls are at or above {@code ceil(f * (total in-flight + 1) / n)} passes
 * the key on to the next provider on the ring; this costs an O(n) sum of in-flight counts per pick.
 * Without it a pick is O(1) expected. Thread-safe.
 */
public final class ConsistentHashLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "consistenthash";
    /** Comma-separated argument indexes forming the key (consumer URL, method level first). */
    public static final String ARGUMENTS_KEY = "hash.arguments";
    /** Virtual nodes per provider (consumer URL, method level first). */
    public static final String NODES_KEY = "hash.nodes";
    /** Bounded-load factor; absent means unbounded (consumer URL, method level first). */
    public static final String LOAD_FACTOR_KEY = "hash.load.factor";
    public static final int DEFAULT_NODES = 160;
    private static final int MAX_NODES = 10_000;

    /** The keys of one method. */
    private record Config(int[] argumentIndexes, int nodes, double loadFactor) {
        static Config read(URL url, String method) {
            MethodSettings settings = new MethodSettings(url, method);
            return new Config(settings.getIndexes(ARGUMENTS_KEY, "0"), settings.getInt(NODES_KEY, DEFAULT_NODES, 1, MAX_NODES),
                    settings.getDouble(LOAD_FACTOR_KEY, 0, 1, Double.MAX_VALUE));
        }
    }

    @Override
    protected void checkSettings(URL url, String method) {
        Config.read(url, method);
    }

    @Override
    protected <T> Picker<T> newPicker(List<Invoker<T>> invokers, URL url, String method, CallStats stats) {
        Config config = Config.read(url, method);
        int[] indexes = config.argumentIndexes();
        Map<String, Invoker<T>> byAddress = new LinkedHashMap<>();
        for (Invoker<T> invoker : invokers) {
            byAddress.putIfAbsent(invoker.getUrl().getAddress(), invoker);
        }
        HashRing ring = HashRing.of(byAddress.keySet().toArray(new String[0]), config.nodes());
        List<Invoker<T>> bySlot = new ArrayList<>(byAddress.values());
        if (config.loadFactor() == 0) {
            return invocation -> bySlot.get(ring.ownerOf(KeyHash.ofArguments(invocation.getArguments(), indexes)));
        }
        InvokerStats[] counters = stats.getAll(bySlot);
        return invocation -> bySlot.get(boundedPick(ring, counters, KeyHash.ofArguments(invocation.getArguments(), indexes),
                config.loadFactor()));
    }

    /** The owner of the first point from {@code hash} on whose in-flight calls are below capacity (else the key's owner). */
    private static int boundedPick(HashRing ring, InvokerStats[] counters, long hash, double loadFactor) {
        long total = 0;
        for (InvokerStats s : counters) {
            total += s.inFlight();
        }
        long capacity = (long) Math.ceil(loadFactor * (total + 1) / counters.length);
        int start = ring.ceiling(hash);
        for (int step = 0; step < ring.size(); step++) {
            int slot = ring.ownerAt((start + step) % ring.size());
            if (counters[slot].inFlight() < capacity) {
                return slot;
            }
        }
        return ring.ownerAt(start);
    }
}
