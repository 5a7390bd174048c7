package dev.weft.rpc.loadbalance;

import com.google.common.base.Splitter;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.internal.HashRing;
import dev.weft.rpc.loadbalance.internal.KeyHash;
import dev.weft.rpc.loadbalance.internal.SnapshotCache;
import dev.weft.rpc.loadbalance.internal.TimeSource;

import java.time.Duration;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code consistenthash}: calls with the same key go to the same provider, and a provider joining
 * or leaving moves only the keys it gains or owned.
 *
 * <p>Key: the arguments at {@value #ARGUMENTS_KEY} (comma-separated indexes, default {@code 0};
 * consumer URL, method level first), each as {@code String.valueOf}, hashed with the stable
 * {@link KeyHash} (length-prefixed, so the joined key is unambiguous). Ring: {@value #NODES_KEY}
 * virtual nodes per provider (default 160) at {@code KeyHash.of(host:port + "#" + i)}. Weights and
 * warm-up do not apply: key affinity is the point of this balancer.
 *
 * <p>Bounded load (optional): with {@value #LOAD_FACTOR_KEY} = f (e.g. 1.25, must be ≥ 1), a provider
 * whose in-flight calls are at or above {@code ceil(f * (total in-flight + 1) / n)} passes the key on
 * to the next provider on the ring. This costs an O(n) sum of in-flight counts per call; without
 * it a pick is O(1) expected.
 *
 * <p>Caching: rings are cached by the set of provider addresses, per service and node count (at most
 * {@value #MAX_RINGS} rings, dropped after 10 idle minutes). A list whose addresses are all on
 * the cached ring (a copy, a reselect subset, a provider gone) reuses it by skipping absent
 * providers, which gives exactly the ring of the smaller set; a new address rebuilds it. Per list
 * instance only the mapping ring slot → list index is computed (O(n)). The newest list
 * remembers its first method's config and slot -> invoker map in one volatile field, so repeated
 * calls on one directory snapshot take one read; other lists find their view through
 * {@link SnapshotCache} (which many services sharing the balancer do not thrash) and its per-method
 * config. Thread-safe.
 */
public class ConsistentHashLoadBalance extends AbstractLoadBalance {

    /** Extension name. */
    public static final String NAME = "consistenthash";
    /** Comma-separated argument indexes forming the key (consumer URL, method level first). */
    public static final String ARGUMENTS_KEY = "hash.arguments";
    /** Virtual nodes per provider (consumer URL, method level first). */
    public static final String NODES_KEY = "hash.nodes";
    /** Bounded-load factor; absent means unbounded (consumer URL, method level first). */
    public static final String LOAD_FACTOR_KEY = "hash.load.factor";
    public static final int DEFAULT_NODES = 160;
    static final int MAX_RINGS = 1024;
    private static final int MAX_NODES = 10_000;

    private final SnapshotCache<ListView> views = new SnapshotCache<>(ListView::new);
    private final Cache<String, HashRing> rings = CacheBuilder.newBuilder()
            .maximumSize(MAX_RINGS).expireAfterAccess(Duration.ofMinutes(10)).build();
    private final AtomicLong ringsBuilt = new AtomicLong();
    /** The newest list seen with the config of its first method: the fast path of {@link #doSelect}. */
    private volatile Newest newest;

    public ConsistentHashLoadBalance() {
        this(TimeSource.SYSTEM);
    }

    ConsistentHashLoadBalance(TimeSource time) {
        super(time);
    }

    @Override
    @SuppressWarnings("unchecked") // Newest.bySlot holds elements of this very list
    protected <T> Invoker<T> doSelect(List<Invoker<T>> invokers, URL url, Invocation invocation) {
        String method = invocation.getMethodName();
        Newest first = newest;
        if (first != null && first.list == invokers && first.size == invokers.size() && first.url == url
                && Objects.equals(first.method, method)) {
            Invoker<?> direct = first.ownerOf(KeyHash.ofArguments(invocation.getArguments(), first.argumentIndexes));
            if (direct != null) {
                return (Invoker<T>) direct;
            }
        }
        return selectByConfig(invokers, url, method, invocation);
    }

    /** The general path (kept out of {@link #doSelect} so that the fast path stays small enough to inline). */
    private <T> Invoker<T> selectByConfig(List<Invoker<T>> invokers, URL url, String method, Invocation invocation) {
        ListView view = views.get(invokers);
        MethodConfig config = view.config(url, method);
        rememberIfNewest(invokers, view, config);
        long hash = KeyHash.ofArguments(invocation.getArguments(), config.argumentIndexes);
        RingView ring = config.ring;
        if (config.loadFactor > 0) {
            return invokers.get(boundedPick(view, ring, ring.ring.ceiling(hash), config.loadFactor));
        }
        int direct = ring.slotToIndex[ring.ring.ownerOf(hash)];
        if (direct >= 0) {
            return invokers.get(direct);
        }
        int position = ring.ring.ceiling(hash);
        int size = ring.ring.size();
        for (int step = 0; step < size; step++) {
            int index = ring.slotToIndex[ring.ring.ownerAt(position)];
            if (index >= 0) {
                return invokers.get(index);
            }
            position = position + 1 == size ? 0 : position + 1;
        }
        throw new IllegalStateException("consistent hash ring has no member of the invoker list");
    }

    /**
     * Makes {@code invokers} the {@link Newest} list the first time it is used, or again when the
     * config of its remembered method changed (a new consumer URL). Nothing is written otherwise,
     * so services and methods taking turns do not write it.
     */
    private void rememberIfNewest(List<? extends Invoker<?>> invokers, ListView view, MethodConfig config) {
        Newest first = newest;
        boolean changed = first != null && first.list == invokers && first.config != config
                && Objects.equals(first.config.method, config.method);
        if (view.firstUse() || changed) {
            newest = new Newest(invokers, config);
        }
    }

    private static int boundedPick(ListView view, RingView ring, int position, double loadFactor) {
        InvokerStats[] stats = view.stats;
        long total = 0;
        for (InvokerStats s : stats) {
            total += s.inFlight();
        }
        long capacity = (long) Math.ceil(loadFactor * (total + 1) / stats.length);
        int size = ring.ring.size();
        int fallback = -1;
        for (int step = 0; step < size; step++) {
            int index = ring.slotToIndex[ring.ring.ownerAt(position)];
            if (index >= 0) {
                if (stats[index].inFlight() < capacity) {
                    return index;
                }
                if (fallback < 0) {
                    fallback = index;
                }
            }
            position = position + 1 == size ? 0 : position + 1;
        }
        return fallback;
    }

    /** Number of rings built by this balancer (for tests: copies and subsets must not build). */
    long ringsBuilt() {
        return ringsBuilt.get();
    }

    private HashRing ringFor(String service, int nodes, String[] addresses) {
        String key = service + "#" + nodes;
        HashRing cached = rings.getIfPresent(key);
        if (cached != null && 2 * addresses.length >= cached.memberCount()) {
            boolean all = true;
            for (String address : addresses) {
                all &= cached.slotOf(address) >= 0;
            }
            if (all) {
                return cached;
            }
        }
        Set<String> distinct = new HashSet<>(Arrays.asList(addresses));
        HashRing built = HashRing.of(distinct.toArray(new String[0]), nodes);
        ringsBuilt.incrementAndGet();
        rings.put(key, built);
        return built;
    }

    /** Per invoker list: addresses, statistics, the ring views per node count and the last config. */
    private final class ListView {
        final String[] addresses;
        final InvokerStats[] stats;
        final ConcurrentMap<Integer, RingView> byNodes = new ConcurrentHashMap<>(2);
        /** Config per method, valid while the consumer URL is the same instance. */
        private final ConcurrentMap<String, MethodConfig> byMethod = new ConcurrentHashMap<>(4);
        private volatile MethodConfig last;
        private volatile boolean used;

        ListView(List<? extends Invoker<?>> invokers) {
            int n = invokers.size();
            addresses = new String[n];
            stats = new InvokerStats[n];
            for (int i = 0; i < n; i++) {
                addresses[i] = invokers.get(i).getUrl().getAddress();
                stats[i] = InvokerStats.of(invokers.get(i));
            }
        }

        /** True on the first call only (racing first calls may both see true; harmless). */
        boolean firstUse() {
            if (used) {
                return false;
            }
            used = true;
            return true;
        }

        MethodConfig config(URL url, String method) {
            MethodConfig cached = last;
            if (cached != null && cached.url == url && Objects.equals(cached.method, method)) {
                return cached;
            }
            String key = method == null ? "" : method;
            MethodConfig config = byMethod.get(key);
            if (config == null || config.url != url) {
                config = new MethodConfig(url, method, this);
                byMethod.put(key, config);
                // only a new config becomes the last one: alternating methods write nothing
                last = config;
            }
            return config;
        }

        RingView ring(String service, int nodes) {
            RingView view = byNodes.get(nodes);
            if (view == null) {
                view = byNodes.computeIfAbsent(nodes, n -> new RingView(ringFor(service, n, addresses), addresses));
            }
            return view;
        }
    }

    /**
     * The list first seen most recently, with its remembered config flattened for the fast path
     * and each ring slot mapped straight to its invoker: an application with one service finds
     * its current snapshot with one volatile read and a few compares. Written only when a list is
     * seen for the first time (or its remembered config changes), so services taking turns do not
     * write it. Holds the list and its invokers strongly: at most one list.
     */
    private static final class Newest {
        /**
         * Largest lookup table mirrored per range (2^17 references, 512 KiB with compressed
         * pointers; 100 providers x 160 nodes use 2^16): bigger rings use the per-slot mapping only.
         */
        static final int MAX_RANGE_BITS = 17;
        final List<?> list;
        final int size;
        final MethodConfig config;
        final URL url;
        final String method;
        final int[] argumentIndexes;
        final HashRing ring;
        /** Per ring slot, the invoker of the list at that address, or null when it is not in the list. */
        final Invoker<?>[] bySlot;
        /** {@code bySlot} per range of the ring's lookup table (see {@link HashRing#perRange}); null for huge rings. */
        final Invoker<?>[] byRange;
        final int rangeShift;

        Newest(List<? extends Invoker<?>> list, MethodConfig config) {
            this.list = list;
            this.size = list.size();
            this.config = config;
            // bounded load needs the general path: this entry then never matches
            this.url = config.loadFactor > 0 ? null : config.url;
            this.method = config.method;
            this.argumentIndexes = config.argumentIndexes;
            this.ring = config.ring.ring;
            int[] slotToIndex = config.ring.slotToIndex;
            this.bySlot = new Invoker<?>[slotToIndex.length];
            for (int slot = 0; slot < slotToIndex.length; slot++) {
                bySlot[slot] = slotToIndex[slot] < 0 ? null : list.get(slotToIndex[slot]);
            }
            this.byRange = ring.rangeBits() <= MAX_RANGE_BITS ? ring.perRange(bySlot) : null;
            this.rangeShift = 64 - ring.rangeBits();
        }

        /**
         * The invoker of the list owning {@code hash}, or null when the owner is not in the list.
         * Most hashes take one read of {@code byRange}; the rest (ranges holding a point) take
         * the ring's lookup.
         */
        Invoker<?> ownerOf(long hash) {
            Invoker<?>[] ranges = byRange;
            if (ranges != null) {
                Invoker<?> direct = ranges[(int) (hash >>> rangeShift)];
                if (direct != null) {
                    return direct;
                }
            }
            return bySlot[ring.ownerOf(hash)];
        }
    }

    /** A ring and, for one list, the list index of each ring slot (-1 when not in the list). */
    private static final class RingView {
        final HashRing ring;
        final int[] slotToIndex;

        RingView(HashRing ring, String[] addresses) {
            this.ring = ring;
            this.slotToIndex = new int[ring.memberCount()];
            Arrays.fill(slotToIndex, -1);
            for (int i = 0; i < addresses.length; i++) {
                int slot = ring.slotOf(addresses[i]);
                if (slotToIndex[slot] < 0) {
                    slotToIndex[slot] = i;
                }
            }
        }
    }

    /** The keys read from one consumer URL for one method. */
    private static final class MethodConfig {
        final URL url;
        final String method;
        final int[] argumentIndexes;
        final double loadFactor;
        final RingView ring;

        MethodConfig(URL url, String method, ListView view) {
            this.url = url;
            this.method = method;
            this.argumentIndexes = parseIndexes(url, method);
            int nodes = url.getMethodParameter(method, NODES_KEY, DEFAULT_NODES);
            if (nodes < 1 || nodes > MAX_NODES) {
                throw new IllegalArgumentException(keyName(url, method, NODES_KEY) + ": " + nodes
                        + " (expected: an integer from 1 to " + MAX_NODES + ") in consumer URL " + url);
            }
            this.loadFactor = parseLoadFactor(url, method);
            this.ring = view.ring(url.getServiceInterface(), nodes);
        }

        private static int[] parseIndexes(URL url, String method) {
            String raw = url.getMethodParameter(method, ARGUMENTS_KEY, "0");
            List<String> parts = Splitter.on(',').trimResults().splitToList(raw);
            int[] indexes = new int[parts.size()];
            for (int i = 0; i < indexes.length; i++) {
                try {
                    indexes[i] = Integer.parseInt(parts.get(i));
                } catch (NumberFormatException e) {
                    indexes[i] = -1;
                }
                if (indexes[i] < 0) {
                    throw new IllegalArgumentException(keyName(url, method, ARGUMENTS_KEY) + ": " + raw
                            + " (expected: comma-separated argument indexes >= 0, e.g. 0,2) in consumer URL " + url);
                }
            }
            return indexes;
        }

        private static double parseLoadFactor(URL url, String method) {
            String raw = url.getMethodParameter(method, LOAD_FACTOR_KEY, "");
            if (raw.isEmpty()) {
                return 0;
            }
            double factor;
            try {
                factor = Double.parseDouble(raw.trim());
            } catch (NumberFormatException e) {
                factor = Double.NaN;
            }
            if (!(factor >= 1.0) || Double.isInfinite(factor)) {
                throw new IllegalArgumentException(keyName(url, method, LOAD_FACTOR_KEY) + ": " + raw
                        + " (expected: a number >= 1, e.g. 1.25) in consumer URL " + url);
            }
            return factor;
        }

        private static String keyName(URL url, String method, String key) {
            return method != null && url.hasMethodParameter(method, key) ? method + "." + key : key;
        }
    }
}
