package dev.weft.rpc.loadbalance;

import com.google.common.base.Suppliers;
import com.google.common.cache.Cache;
import com.google.common.cache.CacheBuilder;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

import java.util.List;
import java.util.Objects;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Supplier;
import java.util.random.RandomGenerator;

/**
 * Base of the balancers: a subclass builds a {@link Picker} for one list and one method
 * ({@link #newPicker}); this class answers the trivial lists (empty: an error; one invoker: that
 * one), and implements {@link #select} on top of pickers.
 *
 * <p><b>{@code select} on any list.</b> {@code select} keeps the last picker built per service and
 * method and reuses it only when the list holds the same invokers in the same order, each with the
 * same provider URL, under an equal consumer URL: so a list changed in place, or an invoker whose
 * weight changed, gets a new picker, and an unchanging list gets the precomputed one. At most
 * {@value #MAX_SELECT_ENTRIES} service-method pairs keep one; beyond that the least recently used
 * is dropped.
 *
 * <p><b>Weights</b> come from {@link Weights#read}: see {@link WeightTable}. A provider whose weight
 * keys are malformed is left out and reported once per picker (that is, once per directory state
 * and method) at WARN; the others serve.
 *
 * <p><b>Statistics and time</b> come from the {@link CallStats} the cluster passes to
 * {@link #picker}; {@code select} uses those of the director that created this balancer (the
 * default director for one constructed directly). Nothing here is static.
 *
 * <p><b>Randomness</b> comes from the generator supplier given to the constructor
 * ({@link ThreadLocalRandom} by default; tests pass a seeded or scripted one), read with {@link #random()}.
 *
 * <p>Subclasses must be thread-safe: one instance serves every thread and every service.
 */
public abstract class AbstractLoadBalance implements LoadBalance, ExtensionDirectorAware {

    static final int MAX_SELECT_ENTRIES = 1024;

    /** Per service and method: the last picker {@code select} built, with the content it was built from. */
    private final Cache<SelectKey, SelectEntry> selectEntries =
            CacheBuilder.newBuilder().concurrencyLevel(1).maximumSize(MAX_SELECT_ENTRIES).build();
    private final Supplier<? extends RandomGenerator> random;
    /** The statistics {@code select} reads: the creating director's, else the default director's. */
    private volatile Supplier<CallStats> stats = Suppliers.memoize(() -> CallStats.of(ExtensionDirector.getDefault()));

    /** A balancer drawing from {@link ThreadLocalRandom}. */
    protected AbstractLoadBalance() {
        this(ThreadLocalRandom::current);
    }

    /** A balancer drawing from {@code random} (thread-safe, or one generator per thread; tests pass a seeded one). */
    protected AbstractLoadBalance(Supplier<? extends RandomGenerator> random) {
        this.random = Objects.requireNonNull(random, "random");
    }

    /** The random generator for this pick. */
    protected final RandomGenerator random() {
        return random.get();
    }

    /** Called by the loader: statistics and time come from the director that created this balancer. */
    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        CallStats own = CallStats.of(director);
        this.stats = () -> own;
    }

    @Override
    public final <T> Invoker<T> select(List<Invoker<T>> invokers, URL url, Invocation invocation) throws RpcException {
        Objects.requireNonNull(invokers, "invokers");
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(invocation, "invocation");
        int size = invokers.size();
        if (size == 1) {
            Invoker<T> only = invokers.get(0);
            prepare(invokers, stats.get());
            return only;
        }
        if (size == 0) {
            throw emptyList(url, invocation.getMethodName());
        }
        String method = invocation.getMethodName();
        SelectKey key = new SelectKey(url.getServiceInterface(), method);
        SelectEntry entry = selectEntries.getIfPresent(key);
        if (entry == null || !entry.matches(invokers, url)) {
            // Built under the key's lock: callers racing on a new list share one picker (and one
            // sequence) instead of each picking from its own until the last one is kept.
            entry = selectEntries.asMap().compute(key, (k, old) -> old != null && old.matches(invokers, url)
                    ? old : newEntry(invokers, url, method));
        }
        @SuppressWarnings("unchecked") // the entry matched: its picker was built from this very content
        Picker<T> picker = (Picker<T>) entry.picker();
        return picker.pick(invocation);
    }

    private <T> SelectEntry newEntry(List<Invoker<T>> invokers, URL url, String method) {
        List<Invoker<T>> copy = List.copyOf(invokers);
        CallStats current = stats.get();
        prepare(copy, current);
        return new SelectEntry(url, copy, copy.stream().<URL>map(Invoker::getUrl).toList(), newPicker(copy, url, method, current));
    }

    @Override
    public final <T> Picker<T> picker(List<Invoker<T>> invokers, URL url, String methodName, CallStats stats) {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(stats, "stats");
        checkSettings(url, methodName);
        List<Invoker<T>> copy = List.copyOf(invokers);
        if (copy.isEmpty()) {
            return invocation -> {
                throw emptyList(url, invocation.getMethodName());
            };
        }
        prepare(copy, stats);
        if (copy.size() == 1) {
            Invoker<T> only = copy.get(0);
            return invocation -> only;
        }
        return newPicker(copy, url, methodName, stats);
    }

    /**
     * A picker over {@code invokers} (immutable, at least two) for calls of {@code method} (null:
     * any), reading the consumer keys of {@code url} now: everything that depends only on the list
     * and the URL is computed once per directory state. Weights: {@link Weights#read}.
     *
     * @throws IllegalArgumentException when a consumer key this balancer reads is malformed
     */
    protected abstract <T> Picker<T> newPicker(List<Invoker<T>> invokers, URL url, String method, CallStats stats);

    /**
     * Called with every non-empty list this balancer is given, a lone invoker included (which
     * needs no picker), before any pick from it: a balancer that needs the cluster to record
     * something of every call (such as {@link InvokerStats#timeLatency()}) asks for it here, so an
     * invoker that served alone has its history when a second one arrives. The default does nothing.
     */
    protected void prepare(List<? extends Invoker<?>> invokers, CallStats stats) {
    }

    /**
     * Reads and checks the consumer keys this balancer reads for {@code method}, whatever the list:
     * {@link #picker} calls it first, so a cluster checking a new state with an empty list still
     * rejects a bad key. The default reads nothing.
     *
     * @throws IllegalArgumentException when a key is malformed
     */
    protected void checkSettings(URL url, String method) {
    }

    /** The error of a pick when no invoker may be picked. */
    protected static RpcException noEligible(URL url, String method, WeightTable weights) {
        return new RpcException(RpcException.NO_INVOKER_AVAILABLE, "No provider may be picked for " + url.getServiceInterface()
                + "." + method + ": every provider is left out (" + String.join("; ", weights.problems()) + "; consumer: " + url + ")");
    }

    private RpcException emptyList(URL url, String method) {
        return new RpcException(RpcException.NO_INVOKER_AVAILABLE, "No provider available to call "
                + url.getServiceInterface() + "." + method + " (load balance: "
                + getClass().getSimpleName() + ", the invoker list is empty; consumer: " + url + ")");
    }

    private record SelectKey(String service, String method) {
    }

    /** A picker with the content it was built from, to check a later list against. */
    private record SelectEntry(URL url, List<? extends Invoker<?>> invokers, List<URL> providers, Picker<?> picker) {
        boolean matches(List<? extends Invoker<?>> list, URL consumer) {
            if (list.size() != invokers.size() || !consumer.equals(url)) {
                return false;
            }
            for (int i = 0; i < providers.size(); i++) {
                Invoker<?> invoker = list.get(i);
                if (invoker != invokers.get(i) || !Objects.equals(invoker.getUrl(), providers.get(i))) {
                    return false;
                }
            }
            return true;
        }
    }
}
