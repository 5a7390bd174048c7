package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.cluster.internal.InvokerStatsCache;
import dev.weft.rpc.cluster.internal.MethodTable;
import dev.weft.rpc.loadbalance.InvokerStats;
import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Function;

/**
 * The shared logic of cluster invokers: per-method settings read once per consumer URL, provider
 * selection (balancer, sticky, exclusion of tried invokers, reselection), call statistics, and
 * the error texts.
 *
 * <p><b>Call path.</b> {@link #invoke} refuses calls once destroyed, then looks up the
 * {@link MethodSettings} of the method (one map lookup in an immutable table; they are rebuilt when the directory's URL
 * instance changes) and hands over to the strategy's {@link #doInvoke}. The happy path copies no
 * list and allocates no "tried" collection; strategies allocate one only after a failure.
 *
 * <p><b>Statistics.</b> {@link #invokeProvider} records {@link InvokerStats} around every provider
 * call (in flight, elapsed nanoseconds, success), so {@code leastactive}, {@code shortestresponse}
 * and {@code p2c} work with no configuration. A call counts as successful when the provider
 * answered: a normal result, a result carrying the service's exception, or a business
 * {@link RpcException} ({@link RpcException#isBiz()}); latency of an answer is real provider
 * latency, while network errors and timeouts count as failures. Only what something reads is
 * recorded ({@link InvokerStats#startCall()}): calls in flight once a balancer reading them has
 * seen the invoker ({@code leastactive}, {@code shortestresponse}, {@code p2c}, bounded
 * {@code consistenthash}) or {@link InvokerStats#inFlight()} was read, and latency once
 * {@code shortestresponse} or {@code p2c} has seen it. Cost on the happy path: while nothing in
 * the JVM reads statistics ({@link InvokerStats#anyTracking()}), one volatile read and nothing
 * else; otherwise the statistics object comes from an identity table built once per listed
 * invoker list (no registry lookup), and with {@code random}, {@code roundrobin} or plain
 * {@code consistenthash} nothing else happens (no atomic operation, no clock read), with
 * {@code leastactive} two atomic adds, and with the latency readers two clock reads as well.
 * Nothing is allocated.
 *
 * <p><b>Ownership.</b> The invoker owns the directory it was joined with: {@link #destroy()}
 * destroys it. Thread-safe: one instance serves every thread of the consumer.
 *
 * @param <T> the service interface
 */
public abstract class AbstractClusterInvoker<T> implements Invoker<T> {

    /** Consumer/method URL key naming the balancer. */
    public static final String LOADBALANCE_KEY = "loadbalance";
    /** The balancer used when {@link #LOADBALANCE_KEY} is absent. */
    public static final String DEFAULT_LOADBALANCE = "random";
    /** Consumer/method URL key: extra attempts (negative means 0); the default depends on the strategy. */
    public static final String RETRIES_KEY = "retries";
    /** Consumer/method URL key: keep using the last chosen invoker while it is available (default false). */
    public static final String STICKY_KEY = "sticky";

    /** Methods with cached settings per URL; beyond this (arbitrary generic names) settings are not cached. */
    private static final int MAX_CACHED_METHODS = 1024;

    private final Directory<T> directory;
    private final Function<String, LoadBalance> loadBalances;
    private final AtomicBoolean destroyed = new AtomicBoolean();
    private final InvokerStatsCache stats = new InvokerStatsCache();
    private volatile UrlSettings<T> urlSettings;

    /**
     * @param directory    the providers; owned by this invoker from now on
     * @param loadBalances resolves balancer names (cached by the caller)
     */
    protected AbstractClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        this.directory = Objects.requireNonNull(directory, "directory");
        this.loadBalances = Objects.requireNonNull(loadBalances, "loadBalances");
    }

    /** The directory's current consumer URL. */
    @Override
    public final URL getUrl() {
        return directory.getUrl();
    }

    /** The directory's interface. */
    @Override
    public final Class<T> getInterface() {
        return directory.getInterface();
    }

    /** The directory this invoker calls. */
    public final Directory<T> getDirectory() {
        return directory;
    }

    /** Not destroyed and the directory has an available invoker. */
    @Override
    public boolean isAvailable() {
        return !destroyed.get() && directory.isAvailable();
    }

    /** Whether {@link #destroy()} was called. */
    public final boolean isDestroyed() {
        return destroyed.get();
    }

    /**
     * Refuses further calls, stops the strategy's background work and destroys the directory.
     * Idempotent.
     */
    @Override
    public final void destroy() {
        if (destroyed.compareAndSet(false, true)) {
            try {
                onDestroy();
            } finally {
                urlSettings = null;
                stats.clear();
                directory.destroy();
            }
        }
    }

    /** Stops the strategy's own background work; called once by {@link #destroy()}. */
    protected void onDestroy() {
    }

    /**
     * Runs {@code invocation} with this strategy.
     *
     * @throws RpcException when the strategy gives up, or with a clear message once destroyed
     */
    @Override
    public final Result invoke(Invocation invocation) throws RpcException {
        Objects.requireNonNull(invocation, "invocation");
        if (destroyed.get()) {
            throw new RpcException("Cluster invoker of service " + getInterface().getName() + " is destroyed; refusing call of method "
                    + invocation.getMethodName() + " (consumer: " + directory.getUrl() + ")");
        }
        return doInvoke(invocation, settings(invocation.getMethodName()));
    }

    /** The strategy: list, select, call, and handle failures. */
    protected abstract Result doInvoke(Invocation invocation, MethodSettings<T> settings) throws RpcException;

    /** The {@link #RETRIES_KEY} default of this strategy. */
    protected int defaultRetries() {
        return 2;
    }

    /**
     * Reads and validates this strategy's own consumer keys; called once per consumer URL
     * instance, before the first call that uses it. Throw {@link IllegalArgumentException} for
     * bad values (the call fails with it until the URL is fixed).
     */
    protected void configure(URL consumerUrl) {
    }

    // ------------------------------------------------------------------ settings

    /** The settings of {@code method} under the directory's current URL. */
    protected final MethodSettings<T> settings(String method) {
        URL url = directory.getUrl();
        UrlSettings<T> current = urlSettings;
        if (current == null || current.url != url) {
            current = refresh(url);
        }
        MethodSettings<T> settings = current.methods.get(method);
        return settings != null ? settings : current.create(method, this);
    }

    private synchronized UrlSettings<T> refresh(URL url) {
        UrlSettings<T> current = urlSettings;
        if (current != null && current.url == url) {
            return current;
        }
        configure(url);
        UrlSettings<T> fresh = new UrlSettings<>(url);
        urlSettings = fresh;
        return fresh;
    }

    /** Per-URL cache of method settings: an immutable table replaced under the lock when a method is added. */
    private static final class UrlSettings<T> {
        final URL url;
        final boolean availableCheck;
        volatile MethodTable<MethodSettings<T>> methods = MethodTable.empty();

        UrlSettings(URL url) {
            this.url = url;
            this.availableCheck = url.getParameter(AbstractDirectory.AVAILABLE_CHECK_KEY, true);
        }

        MethodSettings<T> create(String method, AbstractClusterInvoker<T> owner) {
            String balancer = url.getMethodParameter(method, LOADBALANCE_KEY, DEFAULT_LOADBALANCE);
            LoadBalance loadBalance = owner.loadBalances.apply(balancer);
            int retries = Math.max(0, url.getMethodParameter(method, RETRIES_KEY, owner.defaultRetries()));
            boolean sticky = url.getMethodParameter(method, STICKY_KEY, false);
            MethodSettings<T> created = new MethodSettings<>(url, method, loadBalance, retries, sticky, availableCheck);
            synchronized (this) {
                MethodTable<MethodSettings<T>> table = methods;
                MethodSettings<T> raced = table.get(method);
                if (raced != null) {
                    return raced;
                }
                if (table.size() < MAX_CACHED_METHODS) {
                    methods = table.with(method, created);
                }
                return created;
            }
        }
    }

    /**
     * What one method's calls use, read once per consumer URL: the URL itself, the balancer, the
     * retries ({@code >= 0}), stickiness, the availability check, and the sticky invoker.
     * Thread-safe.
     */
    public static final class MethodSettings<T> {
        private final URL url;
        private final String method;
        private final LoadBalance loadBalance;
        private final int retries;
        private final boolean sticky;
        private final boolean availableCheck;
        private volatile Invoker<T> stickyInvoker;

        MethodSettings(URL url, String method, LoadBalance loadBalance, int retries, boolean sticky, boolean availableCheck) {
            this.url = url;
            this.method = method;
            this.loadBalance = loadBalance;
            this.retries = retries;
            this.sticky = sticky;
            this.availableCheck = availableCheck;
        }

        /** The consumer URL these settings were read from. */
        public URL url() {
            return url;
        }

        public String method() {
            return method;
        }

        public LoadBalance loadBalance() {
            return loadBalance;
        }

        /** Extra attempts, never negative. */
        public int retries() {
            return retries;
        }

        public boolean sticky() {
            return sticky;
        }

        public boolean availableCheck() {
            return availableCheck;
        }
    }

    // ------------------------------------------------------------------ listing and selection

    /**
     * The directory's invokers for {@code invocation}, each checked available now
     * ({@link Directory#list}): for strategies that call invokers without {@link #select}.
     *
     * @throws RpcException {@link RpcException#NO_INVOKER_AVAILABLE} when there are none
     */
    protected final List<Invoker<T>> listInvokers(Invocation invocation) throws RpcException {
        return prepared(directory.list(invocation), invocation);
    }

    /**
     * The directory's invokers for {@code invocation} that are not known to be unavailable
     * ({@link Directory#candidates}): for strategies that pick with {@link #select}, which checks
     * the invoker it picks and falls back to the exact list when it is down.
     *
     * @throws RpcException {@link RpcException#NO_INVOKER_AVAILABLE} when there are none
     */
    protected final List<Invoker<T>> listCandidates(Invocation invocation) throws RpcException {
        return prepared(directory.candidates(invocation), invocation);
    }

    private List<Invoker<T>> prepared(List<Invoker<T>> invokers, Invocation invocation) {
        if (invokers.isEmpty()) {
            throw noProviderError(invocation);
        }
        if (InvokerStats.anyTracking()) {
            stats.prepare(invokers);
        }
        return invokers;
    }

    /** The {@link RpcException#NO_INVOKER_AVAILABLE} error naming the service, method and consumer URL. */
    protected final RpcException noProviderError(Invocation invocation) {
        return new RpcException(RpcException.NO_INVOKER_AVAILABLE, "No provider available for method " + invocation.getMethodName()
                + " of service " + getInterface().getName() + " (consumer: " + directory.getUrl()
                + "; the directory is empty or every provider is unavailable)");
    }

    /**
     * Picks the invoker for the next attempt among {@code invokers} (non-empty; typically from
     * {@link #listCandidates}).
     *
     * <p>With {@code sticky} the last chosen invoker is kept while it is listed, available and not
     * in {@code tried}. Otherwise the balancer chooses; when its choice was already tried, the
     * balancer chooses again among the untried available ones, and when its choice is unavailable
     * under the availability check, among the untried ones of the directory's exact
     * {@link Directory#list} (asking for it also lets the directory stop offering the invoker).
     * When every invoker was tried, the least recently tried available one is used, so repeated
     * attempts rotate instead of hammering one provider.
     *
     * @param tried invokers already tried in this call, least recent first; {@code null} for none
     */
    protected final Invoker<T> select(Invocation invocation, List<Invoker<T>> invokers, List<Invoker<T>> tried,
                                      MethodSettings<T> settings) {
        if (!settings.sticky) {
            return doSelect(invocation, invokers, tried, settings);
        }
        Invoker<T> sticky = settings.stickyInvoker;
        if (sticky != null && (tried == null || !tried.contains(sticky)) && (!settings.availableCheck || sticky.isAvailable())
                && invokers.contains(sticky)) {
            return sticky;
        }
        Invoker<T> chosen = doSelect(invocation, invokers, tried, settings);
        settings.stickyInvoker = chosen;
        return chosen;
    }

    private Invoker<T> doSelect(Invocation invocation, List<Invoker<T>> invokers, List<Invoker<T>> tried,
                                MethodSettings<T> settings) {
        Invoker<T> chosen = invokers.size() == 1 ? invokers.get(0) : settings.loadBalance.select(invokers, settings.url, invocation);
        if (chosen == null) {
            throw new IllegalStateException("LoadBalance " + settings.loadBalance.getClass().getName() + " returned null for method "
                    + invocation.getMethodName() + " of service " + getInterface().getName() + " among " + invokers.size() + " invokers");
        }
        List<Invoker<T>> among = invokers;
        if (tried == null || !tried.contains(chosen)) {
            if (!settings.availableCheck || chosen.isAvailable()) {
                return chosen;
            }
            // the candidates may be stale: ask for the exact list, which also tells the directory
            among = directory.list(invocation);
            if (among.isEmpty()) {
                throw noProviderError(invocation);
            }
        }
        return reselect(invocation, among, tried, settings, chosen);
    }

    private Invoker<T> reselect(Invocation invocation, List<Invoker<T>> invokers, List<Invoker<T>> tried,
                                MethodSettings<T> settings, Invoker<T> rejected) {
        List<Invoker<T>> untried = new ArrayList<>(invokers.size());
        for (Invoker<T> invoker : invokers) {
            if ((tried == null || !tried.contains(invoker)) && (!settings.availableCheck || invoker.isAvailable())) {
                untried.add(invoker);
            }
        }
        if (untried.size() == 1) {
            return untried.get(0);
        }
        if (!untried.isEmpty()) {
            Invoker<T> chosen = settings.loadBalance.select(Collections.unmodifiableList(untried), settings.url, invocation);
            return chosen != null ? chosen : untried.get(0);
        }
        if (tried != null) {
            for (Invoker<T> leastRecent : tried) {
                if (invokers.contains(leastRecent) && (!settings.availableCheck || leastRecent.isAvailable())) {
                    return leastRecent;
                }
            }
        }
        return rejected;
    }

    /**
     * Records {@code invoker} as the most recently tried, allocating the list on first use.
     *
     * @return the (possibly new) tried list, least recent first, without duplicates
     */
    protected static <T> List<Invoker<T>> markTried(List<Invoker<T>> tried, Invoker<T> invoker, int expectedSize) {
        List<Invoker<T>> list = tried != null ? tried : new ArrayList<>(Math.max(2, expectedSize));
        list.remove(invoker);
        list.add(invoker);
        return list;
    }

    // ------------------------------------------------------------------ calling

    /**
     * Calls {@code invoker}, recording {@link InvokerStats} (in flight; elapsed time and success
     * when latency is tracked) around it. Exceptions pass unchanged.
     */
    protected final Result invokeProvider(Invoker<T> invoker, Invocation invocation) throws RpcException {
        if (!InvokerStats.anyTracking()) {
            // nothing in this JVM reads statistics yet: there is nothing to record
            return invoker.invoke(invocation);
        }
        InvokerStats stats = this.stats.of(invoker);
        long started = stats.startCall();
        boolean answered = false;
        try {
            Result result = invoker.invoke(invocation);
            answered = true;
            return result;
        } catch (RpcException e) {
            answered = e.isBiz();
            throw e;
        } finally {
            stats.endCall(started, answered);
        }
    }

    // ------------------------------------------------------------------ errors

    /** Whether {@code failure} is the service's own answer, never retried. */
    protected static boolean isBiz(Throwable failure) {
        return failure instanceof RpcException && ((RpcException) failure).isBiz();
    }

    /** Rethrows JVM errors (out of memory, stack overflow) that no strategy should absorb. */
    protected static void rethrowIfFatal(Throwable failure) {
        if (failure instanceof VirtualMachineError) {
            throw (VirtualMachineError) failure;
        }
    }

    /** The code a wrapping {@link RpcException} keeps: the cause's code, else {@code UNKNOWN_EXCEPTION}. */
    protected static int codeOf(Throwable cause) {
        return cause instanceof RpcException ? ((RpcException) cause).getCode() : RpcException.UNKNOWN_EXCEPTION;
    }

    /** A short provider label for messages: {@code host:port}, else the URL (password redacted). */
    protected static String describe(Invoker<?> invoker) {
        URL url = invoker.getUrl();
        if (url == null) {
            return String.valueOf(invoker);
        }
        String address = url.getAddress();
        return address.isEmpty() ? url.toString() : address;
    }

    /** Provider labels for messages: {@code [host1:port, host2:port]}. */
    protected static String describeAll(List<? extends Invoker<?>> invokers) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < invokers.size(); i++) {
            if (i > 0) {
                sb.append(", ");
            }
            sb.append(describe(invokers.get(i)));
        }
        return sb.append(']').toString();
    }

    /** {@code method m of service s} for messages. */
    protected final String callSite(Invocation invocation) {
        return "method " + invocation.getMethodName() + " of service " + getInterface().getName();
    }

    /** A brief text of a failure for messages: class and message. */
    protected static String brief(Throwable failure) {
        return failure.getClass().getSimpleName() + ": " + failure.getMessage();
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "[" + getInterface().getName() + ", " + directory.getUrl() + "]";
    }
}
