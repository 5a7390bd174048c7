package dev.weft.rpc.cluster;

import com.google.common.base.Suppliers;
import com.google.common.base.Ticker;
import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Deadline;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.ThrottledLog;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.loadbalance.CallStats;
import dev.weft.rpc.loadbalance.InvokerStats;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.loadbalance.MethodSettings;
import dev.weft.rpc.loadbalance.Picker;
import dev.weft.rpc.loadbalance.WeightTable;
import org.slf4j.LoggerFactory;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The shared logic of cluster invokers: per-state plans, provider selection (picker, sticky,
 * exclusion of tried invokers, reselection), call statistics, and the error texts.
 *
 * <p><b>States and plans.</b> Joined to an {@link AbstractDirectory}, the invoker is one of its
 * {@link DirectoryListener}s: it checks every new state before it is published, resolving the
 * consumer keys of the service level and of every method of the interface (balancer name,
 * {@code retries}, {@code sticky}, the balancer's own keys, and the strategy's keys through
 * {@link #resolve}). A bad value vetoes the state: {@code join}, {@code setUrl}, {@code setState}
 * throw {@code what: value (expected: rule)} and the last good state keeps serving, so at call time
 * only runtime failures remain. A call reads the directory's current state (one volatile read) and
 * plans it when it is new; each method's {@link MethodPlan} (with its picker) is built once, on the
 * first call of that method in that state, so the per-call path is two volatile reads, one map lookup
 * and {@code picker.pick}. Other {@link Directory} implementations are listed per call and planned
 * anew when their URL or members change (a bad value then fails the call).
 *
 * <p><b>Resilience.</b> The service's {@link RetryBudget} ({@link ResilienceStats}) receives every call,
 * and strategies ask it before every retry, extra fork or hedge ({@link #mayRetry}); every provider
 * call's outcome reaches the service's {@link OutlierDetector}, which ejects outliers from an
 * {@link AbstractDirectory}. Their keys ({@link ResilienceSettings}) are checked with every state.
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
    /**
     * Consumer/method URL key: the budget of a whole call in ms, every attempt, fork and retry
     * included (default 0: none). The call's {@link CallOptions#deadline()} becomes that much from the
     * start of the call (or stays the caller's own when earlier); no attempt starts past it, and each
     * attempt's deadline on the wire is the smaller of its {@code timeout} and what is left.
     */
    public static final String CALL_TIMEOUT_KEY = "call-timeout";
    /** Consumer/method URL key: keep using the last chosen invoker while it is available (default false). */
    public static final String STICKY_KEY = "sticky";

    /** Methods with a cached plan per state; beyond this (arbitrary generic names) plans are built per call. */
    private static final int MAX_PLANNED_METHODS = 1024;
    /** The least time between two ERROR lines of one invoker: a burst of failures gives one stack trace and a count. */
    private static final Duration FAILURE_LOG_INTERVAL = Duration.ofSeconds(10);

    private final Directory<T> directory;
    private final Function<String, LoadBalance> loadBalances;
    /** The names of the interface's methods, whose settings every state is checked for. */
    private final Set<String> interfaceMethods;
    private final AtomicBoolean destroyed = new AtomicBoolean();
    /** Checks every state before its directory publishes it (a bad setting vetoes it). */
    private final DirectoryListener<T> checker = this::planOf;
    /** The sticky invoker per method: kept across states while it stays listed and available. */
    private final ConcurrentHashMap<String, Invoker<T>> stickyInvokers = new ConcurrentHashMap<>();
    private volatile CallStats stats;
    private volatile ServiceResilience resilience;
    private volatile OutlierDetector outliers;
    private volatile ThrottledLog budgetLog;
    private volatile ThrottledLog failureLog;
    private volatile ThrottledLog warningLog;
    private volatile StatePlan<T> plan;

    /**
     * @param directory    the providers; owned by this invoker from now on
     * @param loadBalances resolves balancer names (cached by the caller)
     */
    protected AbstractClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances) {
        this.directory = Objects.requireNonNull(directory, "directory");
        this.loadBalances = Objects.requireNonNull(loadBalances, "loadBalances");
        this.interfaceMethods = Arrays.stream(directory.getInterface().getMethods())
                .filter(method -> !method.isDefault() && !Modifier.isStatic(method.getModifiers()))
                .map(Method::getName).collect(Collectors.toCollection(TreeSet::new));
    }

    /**
     * Starts serving with {@code stats}: checks the directory's current state and, for an
     * {@link AbstractDirectory}, registers to check the states it publishes. Called once by the
     * cluster's {@code join}.
     *
     * @throws IllegalArgumentException when the current state has a bad setting
     */
    final void start(CallStats callStats, ResilienceStats resilienceStats) {
        stats = Objects.requireNonNull(callStats, "callStats");
        failureLog = new ThrottledLog(LoggerFactory.getLogger(getClass()), callStats.ticker(), FAILURE_LOG_INTERVAL);
        warningLog = new ThrottledLog(LoggerFactory.getLogger(getClass()), callStats.ticker(), FAILURE_LOG_INTERVAL);
        budgetLog = new ThrottledLog(LoggerFactory.getLogger(RetryBudget.class), callStats.ticker(), FAILURE_LOG_INTERVAL);
        resilience = resilienceStats.service(ResilienceStats.serviceOf(getInterface(), directory.getUrl()));
        Consumer<List<Invoker<?>>> ejections = ejected -> { }; // another Directory cannot leave providers out
        if (directory instanceof AbstractDirectory<T> ejecting) {
            ejections = ejecting::setEjected;
        }
        outliers = new OutlierDetector(callStats.ticker(), ejections, resilience);
        if (directory instanceof AbstractDirectory<T> published) {
            published.addListener(checker);
            plan = planOf(published.state());
        } else {
            plan = planOf(DirectoryState.of(directory.getUrl(), List.of(), 0));
        }
    }

    /** Logs a failure at ERROR, rate-limited per invoker with counts of the ones not logged. */
    final void logFailure(String message, Throwable failure) {
        failureLog.error(message, failure);
    }

    /** Logs at WARN, rate-limited per invoker with counts of the lines not logged (one per 10 s at most). */
    final void logWarning(String message) {
        warningLog.warn(message);
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
                if (directory instanceof AbstractDirectory<T> published) {
                    published.removeListener(checker);
                }
                directory.destroy();
            }
        }
    }

    /** Stops the strategy's own background work; called once by {@link #destroy()}. */
    protected void onDestroy() {
    }

    /**
     * Runs {@code invocation} with this strategy. The result may be pending (an attempt is still
     * running): the strategy then goes on as attempts end, on the threads that end them, and the
     * result ends once with the call's outcome. A failure known before this method returns is
     * thrown; one found later ends the result ({@link Result#completion()} fails with it).
     * An invocation that is not an {@link RpcInvocation} is copied into one, whose call options
     * each attempt replaces with its own ({@link CallOptions#attempt()} 1, 2, ...).
     *
     * @throws RpcException when the strategy gives up before returning, or with a clear message once destroyed
     */
    @Override
    public final Result invoke(Invocation invocation) throws RpcException {
        Objects.requireNonNull(invocation, "invocation");
        if (destroyed.get()) {
            throw new RpcException("Cluster invoker of service " + getInterface().getName() + " is destroyed; refusing call of method "
                    + invocation.getMethodName() + " (consumer: " + directory.getUrl() + ")");
        }
        RpcInvocation call = invocation instanceof RpcInvocation rpc ? rpc : RpcInvocation.copyOf(invocation);
        MethodPlan<T> methodPlan = plan(call);
        resilience.budget().onCall(plan.resilience.budget());
        if (methodPlan.callTimeoutMillis() > 0) {
            call.setCallOptions(call.getCallOptions().withEarlierDeadline(
                    Deadline.after(methodPlan.callTimeoutMillis(), TimeUnit.MILLISECONDS, stats.ticker())));
        }
        return Results.throwIfFailed(doInvoke(call, methodPlan));
    }

    /** The clock of the director that created the cluster. */
    protected final Ticker ticker() {
        return stats.ticker();
    }

    /** The resilience counters and retry budget of this invoker's service. */
    public final ServiceResilience resilience() {
        return resilience;
    }

    /**
     * Asks the service's retry budget for one more attempt (a retry, an extra fork, a hedge) of
     * {@code invocation}, whose last failure was {@code lastFailure} (null for a fork or hedge);
     * a refusal is counted and logged (rate-limited).
     *
     * @return whether the attempt may be made
     */
    protected final boolean mayRetry(Invocation invocation, Throwable lastFailure) {
        RetryBudget.Settings budget = plan.resilience.budget();
        if (resilience.budget().tryRetry(budget)) {
            return true;
        }
        budgetLog.warn("Retry budget of service " + resilience.service() + " spent (" + ResilienceSettings.RETRY_BUDGET_KEY + "="
                + budget.share() + ", " + ResilienceSettings.RETRY_BUDGET_MIN_KEY + "=" + budget.minPerSecond()
                + "): no further attempt of method " + invocation.getMethodName()
                + (lastFailure == null ? "" : "; the call fails with its last error: " + brief(lastFailure)));
        return false;
    }

    /**
     * The strategy: list, select, call, and handle failures. One code path whether attempts end at
     * once or later: continue after an attempt with {@link Results#then}, and end a call with a
     * failure by returning {@link AsyncResult#failed} (or throwing, before any attempt started).
     * {@code invocation} is an {@link RpcInvocation}; its {@code getCallOptions()} are the caller's:
     * each attempt runs with {@link #attemptOptions}, which {@link #invokeProvider} sets on it.
     */
    protected abstract Result doInvoke(Invocation invocation, MethodPlan<T> plan) throws RpcException;

    /** The {@link #RETRIES_KEY} default of this strategy. */
    protected int defaultRetries() {
        return 2;
    }

    /**
     * Reads and validates this strategy's own keys for one method ({@code settings.method()} null:
     * the service level), once per state; what it returns is {@link MethodPlan#strategySettings()}.
     * Throw {@link IllegalArgumentException} (e.g. {@code settings.invalid(...)}) for a bad value: the
     * state is then rejected. The default reads nothing.
     */
    protected Object resolve(MethodSettings settings) {
        return null;
    }

    /** What {@link #resolve} returned for the service level of the current state. */
    protected final <S> S serviceSettings() {
        @SuppressWarnings("unchecked")
        S resolved = (S) plan.serviceSettings;
        return resolved;
    }

    // ------------------------------------------------------------------ plans

    /** The plan of the invocation's method under the directory's current state (planned anew when the state changed). */
    protected final MethodPlan<T> plan(Invocation invocation) {
        StatePlan<T> current = statePlan(invocation);
        if (outliers.returnDue(current.resilience.outliers())) {
            current = statePlan(invocation); // ejected providers came back: a new state
        }
        return current.method(invocation.getMethodName(), current.state.routes().routeKey(invocation), this);
    }

    /** The plan of the directory's current state (planned anew when the state changed). */
    private StatePlan<T> statePlan(Invocation invocation) {
        StatePlan<T> current = plan;
        DirectoryState<T> state = current.state;
        if (directory instanceof AbstractDirectory<T> published) {
            state = published.state();
            if (state.anyRecovered()) {
                directory.list(invocation); // publishes the recovered providers as available
                state = published.state();
            }
        } else {
            URL url = directory.getUrl();
            List<Invoker<T>> members = directory.list(invocation);
            if (!url.equals(state.url()) || !DirectoryState.sameMembers(state.allInvokers(), members) || state.anyRecovered()) {
                state = DirectoryState.of(url, members, state.version() + 1);
            }
        }
        if (state != current.state) {
            current = planOf(state);
            plan = current;
        }
        return current;
    }

    /**
     * The plan of {@code state}, after resolving the settings of the service level and of every
     * method of the interface and building each balancer's picker over an empty list (which checks
     * its keys); throws on the first bad one.
     */
    private StatePlan<T> planOf(DirectoryState<T> state) {
        MethodPlan<T> service = buildPlan(state, null, List.of(), List.of());
        for (String method : interfaceMethods) {
            buildPlan(state, method, List.of(), List.of());
        }
        ResilienceSettings resilienceSettings = ResilienceSettings.of(state.url());
        if (resilienceSettings.outliers().latencyFactor() > 0) {
            state.invokers().forEach(invoker -> stats.get(invoker).timeLatency());
        }
        // each provider's statistics are found once per state (on its first call) rather than once per call
        return new StatePlan<>(state, service.strategy(), resilienceSettings, new ConcurrentHashMap<>(), new ConcurrentHashMap<>(),
                Suppliers.memoize(() -> state.invokers().stream()
                .collect(Collectors.toMap(Function.identity(), stats::get, (first, again) -> first, IdentityHashMap::new))));
    }

    /** The plan of {@code method} under {@code state} over {@code candidates}, its picker built over {@code pickFrom}. */
    private MethodPlan<T> buildPlan(DirectoryState<T> state, String method, List<Invoker<T>> candidates, List<Invoker<T>> pickFrom) {
        MethodSettings settings = new MethodSettings(state.url(), method);
        String balancer = settings.getString(LOADBALANCE_KEY, DEFAULT_LOADBALANCE);
        LoadBalance loadBalance;
        try {
            loadBalance = loadBalances.apply(balancer);
        } catch (RuntimeException e) {
            throw settings.invalid(LOADBALANCE_KEY, balancer, "a LoadBalance extension; " + e.getMessage());
        }
        int retries = Math.max(0, settings.getInt(RETRIES_KEY, defaultRetries(), Integer.MIN_VALUE, Integer.MAX_VALUE));
        boolean sticky = settings.getBoolean(STICKY_KEY, false);
        Object strategy = resolve(settings);
        long callTimeout = settings.getLong(CALL_TIMEOUT_KEY, 0, 0, Long.MAX_VALUE);
        Picker<T> picker = loadBalance.picker(pickFrom, state.url(), method, stats);
        return new MethodPlan<>(settings, loadBalance, retries, sticky, state.availableCheck(), candidates, picker, strategy,
                callTimeout);
    }

    /**
     * One state with its service-level strategy settings, its resilience settings, the method plans
     * built so far (of calls without a route key, and per route key), and its providers' statistics.
     */
    private record StatePlan<T>(DirectoryState<T> state, Object serviceSettings, ResilienceSettings resilience,
                                ConcurrentHashMap<String, MethodPlan<T>> methods,
                                ConcurrentHashMap<String, ConcurrentHashMap<String, MethodPlan<T>>> routed,
                                Supplier<Map<Invoker<T>, InvokerStats>> statistics) {

        MethodPlan<T> method(String name, String routeKey, AbstractClusterInvoker<T> owner) {
            String key = name == null ? "" : name;
            ConcurrentHashMap<String, MethodPlan<T>> plans = routeKey.isEmpty() ? methods
                    : routed.size() < MAX_PLANNED_METHODS ? routed.computeIfAbsent(routeKey, k -> new ConcurrentHashMap<>()) : null;
            MethodPlan<T> known = plans == null ? null : plans.get(key);
            if (known != null) {
                return known;
            }
            List<Invoker<T>> candidates = state.routes().of(name, routeKey).invokers();
            MethodPlan<T> built = owner.buildPlan(state, name, candidates, candidates);
            if (plans == null || plans.size() >= MAX_PLANNED_METHODS) {
                return built;
            }
            MethodPlan<T> raced = plans.putIfAbsent(key, built);
            return raced != null ? raced : built;
        }
    }

    // ------------------------------------------------------------------ listing and selection

    /**
     * The providers the call chooses among ({@link MethodPlan#candidates()}; the mock invokers for
     * a call asking for mocks).
     *
     * @throws RpcException {@link RpcException#NO_INVOKER_AVAILABLE} when there are none
     */
    protected final List<Invoker<T>> listCandidates(Invocation invocation, MethodPlan<T> plan) throws RpcException {
        return AbstractDirectory.isMockCall(invocation) ? listInvokers(invocation) : nonEmpty(plan.candidates(), invocation);
    }

    /**
     * The directory's invokers for {@code invocation}, each checked available now
     * ({@link Directory#list}; this also lets the directory publish a provider found down): for
     * strategies that call invokers without {@link #select}, and for retries after a failure.
     *
     * @throws RpcException {@link RpcException#NO_INVOKER_AVAILABLE} when there are none
     */
    protected final List<Invoker<T>> listInvokers(Invocation invocation) throws RpcException {
        return nonEmpty(directory.list(invocation), invocation);
    }

    /**
     * {@link #listInvokers} without the providers the balancers leave out for the method (a
     * malformed weight key, {@code weight=-5}): for strategies that call providers without a balancer
     * ({@code broadcast}, {@code forking} over every provider), so a provider left out is never called.
     *
     * @throws RpcException {@link RpcException#NO_INVOKER_AVAILABLE} when none is left
     */
    protected final List<Invoker<T>> listCallable(Invocation invocation, MethodPlan<T> plan) throws RpcException {
        List<Invoker<T>> listed = listInvokers(invocation);
        WeightTable weights = WeightTable.read(listed, plan.method(), stats.currentTimeMillis());
        if (weights.problems().isEmpty()) {
            return listed;
        }
        List<Invoker<T>> callable = new ArrayList<>(listed.size());
        for (int i = 0; i < listed.size(); i++) {
            if (!weights.isLeftOut(i)) {
                callable.add(listed.get(i));
            }
        }
        return nonEmpty(callable, invocation);
    }

    private List<Invoker<T>> nonEmpty(List<Invoker<T>> invokers, Invocation invocation) {
        if (!invokers.isEmpty()) {
            return invokers;
        }
        if (directory instanceof AbstractDirectory<T> published && published.isDestroyed()) {
            throw new RpcException(RpcException.NO_INVOKER_AVAILABLE, "Directory of service " + getInterface().getName()
                    + " is destroyed; cannot list providers for method " + invocation.getMethodName() + " (consumer: "
                    + directory.getUrl() + ")");
        }
        String refusal = directory instanceof AbstractDirectory<T> published && !AbstractDirectory.isMockCall(invocation)
                ? published.state().routes().of(invocation).refusal() : null;
        throw new RpcException(RpcException.NO_INVOKER_AVAILABLE, "No provider available for method " + invocation.getMethodName()
                + " of service " + getInterface().getName() + " (consumer: " + directory.getUrl()
                + (refusal != null ? "; " + refusal + ")" : "; the directory is empty or every provider is unavailable)"));
    }

    /**
     * Picks the invoker for the next attempt among {@code invokers} (non-empty).
     *
     * <p>The first attempt over the plan's candidates asks the plan's picker; later attempts (or other
     * lists) ask the balancer's {@code select}. With {@code sticky} the last chosen invoker is kept
     * while it is listed (itself, or a new {@link InvokerView} of the same provider), available and
     * not in {@code tried}. When the choice was already tried,
     * the balancer chooses again among the untried available ones; when it is unavailable under the
     * availability check, among the untried ones of the directory's exact {@link Directory#list}
     * (asking for it also lets the directory publish the provider as down). When every invoker was
     * tried, the least recently tried available one is used, so repeated attempts rotate.
     *
     * @param tried invokers already tried in this call, least recent first; {@code null} for none. A
     *              provider counts as tried under any view of it ({@link InvokerView#unwrap}), so a
     *              directory that shows it through a new view meanwhile does not make it untried
     */
    protected final Invoker<T> select(Invocation invocation, List<Invoker<T>> invokers, List<Invoker<T>> tried, MethodPlan<T> plan) {
        String method = plan.sticky() ? Objects.toString(plan.method(), "") : null;
        Invoker<T> kept = method == null ? null : stickyInvokers.get(method);
        Invoker<T> sticky = listedAs(kept, invokers);
        if (sticky != null && usable(sticky, tried, plan)) {
            if (sticky != kept) {
                stickyInvokers.put(method, sticky);
            }
            return sticky;
        }
        Invoker<T> chosen = choose(invocation, invokers, plan);
        if (!usable(chosen, tried, plan)) {
            // untried but down: the candidates may be stale, so choose among the exact list
            List<Invoker<T>> among = !wasTried(tried, chosen) ? listInvokers(invocation) : invokers;
            List<Invoker<T>> untried = among.stream().filter(invoker -> usable(invoker, tried, plan)).toList();
            if (!untried.isEmpty()) {
                chosen = untried.size() == 1 ? untried.get(0)
                        : Objects.requireNonNullElse(plan.loadBalance().select(untried, plan.url(), invocation), untried.get(0));
            } else if (tried != null) {
                chosen = tried.stream().map(invoker -> listedAs(invoker, among)).filter(invoker -> invoker != null && usable(invoker, null, plan))
                        .findFirst().orElse(chosen);
            }
        }
        if (method != null && chosen != sticky && (stickyInvokers.size() < MAX_PLANNED_METHODS || stickyInvokers.containsKey(method))) {
            stickyInvokers.put(method, chosen);
        }
        return chosen;
    }

    /**
     * {@code sticky} when {@code invokers} lists it, else the invoker of {@code invokers} that shows the
     * same provider ({@link InvokerView#unwrap}: a registry shows a provider through a new view when a
     * rule changes its URL), else null.
     */
    private static <T> Invoker<T> listedAs(Invoker<T> sticky, List<Invoker<T>> invokers) {
        if (sticky == null || invokers.contains(sticky)) {
            return sticky;
        }
        Invoker<?> provider = InvokerView.unwrap(sticky);
        return invokers.stream().filter(invoker -> InvokerView.unwrap(invoker) == provider).findFirst().orElse(null);
    }

    private static <T> boolean usable(Invoker<T> invoker, List<Invoker<T>> tried, MethodPlan<T> plan) {
        return !wasTried(tried, invoker) && (!plan.availableCheck() || invoker.isAvailable());
    }

    /** Whether {@code tried} (may be null) holds {@code invoker} or another view of the same provider. */
    private static <T> boolean wasTried(List<Invoker<T>> tried, Invoker<T> invoker) {
        if (tried == null) {
            return false;
        }
        Invoker<?> provider = InvokerView.unwrap(invoker);
        return tried.stream().anyMatch(each -> InvokerView.unwrap(each) == provider);
    }

    /** The balancer's first choice: the plan's picker over its candidates, {@code select} over any other list. */
    private Invoker<T> choose(Invocation invocation, List<Invoker<T>> invokers, MethodPlan<T> plan) {
        if (invokers.size() == 1) {
            return invokers.get(0);
        }
        Invoker<T> chosen = invokers == plan.candidates() ? plan.picker().pick(invocation)
                : plan.loadBalance().select(invokers, plan.url(), invocation);
        if (chosen == null) {
            throw new IllegalStateException("LoadBalance " + plan.loadBalance().getClass().getName() + " returned null for method "
                    + invocation.getMethodName() + " of service " + getInterface().getName() + " among " + invokers.size() + " invokers");
        }
        return chosen;
    }

    /**
     * Records {@code invoker} as the most recently tried, allocating the list on first use.
     *
     * @return the (possibly new) tried list, least recent first, one entry per provider (views of one
     *         provider are the same provider)
     */
    protected static <T> List<Invoker<T>> markTried(List<Invoker<T>> tried, Invoker<T> invoker, int expectedSize) {
        List<Invoker<T>> list = tried != null ? tried : new ArrayList<>(Math.max(2, expectedSize));
        Invoker<?> provider = InvokerView.unwrap(invoker);
        list.removeIf(each -> InvokerView.unwrap(each) == provider);
        list.add(invoker);
        return list;
    }

    // ------------------------------------------------------------------ calling

    /** The options of attempt {@code attempt} (1, 2, ...) of a call whose caller passed {@code callerOptions}. */
    protected static CallOptions attemptOptions(CallOptions callerOptions, int attempt) {
        return callerOptions.withAttempt(attempt);
    }

    /**
     * Calls {@code invoker} with {@code options} (set on the invocation), recording its
     * {@link InvokerStats} in the {@link CallStats} of the director that created the cluster at the
     * real end of the attempt: in flight always; elapsed time and success when a balancer asked for
     * latency. The attempt succeeded when the provider answered: a result (even one carrying the
     * service's exception) or a business {@link RpcException}. Never throws: what the invoker throws
     * (other than a JVM error) becomes a failed result; a {@code null} result counts as an empty one.
     */
    protected final Result invokeProvider(Invoker<T> invoker, Invocation invocation, CallOptions options) {
        if (invocation instanceof RpcInvocation rpc) {
            rpc.setCallOptions(options);
        }
        StatePlan<T> current = plan;
        if (!outliers.admit(invoker, current.resilience.outliers()) && !servesWhileEjected(invoker)) {
            return AsyncResult.failed(new RpcException(RpcException.NOT_PROCESSED, "Provider " + describe(invoker) + " of service "
                    + getInterface().getName() + " is ejected as an outlier, or its probe is in flight; not sent (method "
                    + invocation.getMethodName() + ")"));
        }
        InvokerStats counters = current.statistics().get().get(invoker);
        if (counters == null) { // a mock invoker, or a provider of another state
            counters = stats.get(invoker);
        }
        long started = counters.startCall();
        long sent = outliers.mark();
        Result result;
        try {
            result = invoker.invoke(invocation);
        } catch (RuntimeException | Error e) {
            rethrowIfFatal(e);
            ended(counters, started, sent, invoker, e, current);
            return AsyncResult.failed(e);
        }
        if (result == null) { // a provider answering no result answers an empty one
            ended(counters, started, sent, invoker, null, current);
            return RpcResult.of(null);
        }
        if (result.isDone()) { // the common in-process case: no action object to allocate
            ended(counters, started, sent, invoker, Results.failureOf(result), current);
            return result;
        }
        InvokerStats ending = counters;
        return result.whenComplete((value, failure) -> ended(ending, started, sent, invoker, failure, current));
    }

    /**
     * An attempt sent at {@code sent} (the outlier detector's {@link OutlierDetector#mark()}) ended with
     * {@code failure} (null: answered): its statistics and the outlier detector learn it.
     */
    private void ended(InvokerStats counters, long started, long sent, Invoker<T> invoker, Throwable failure, StatePlan<T> current) {
        boolean answered = failure == null || isBiz(failure);
        counters.endCall(started, answered);
        OutlierSettings settings = current.resilience.outliers();
        URL provider = invoker.getUrl();
        if (!settings.enabled() || provider != null && DirectoryState.MOCK_PROTOCOL.equals(provider.getProtocol())) {
            return;
        }
        if (answered) {
            outliers.onAnswer(invoker, settings);
        } else if (failure instanceof RpcException e && (e.isNotProcessed() || e.isCancelled())) {
            outliers.onBusy(invoker); // neither an answer nor a failure of the provider
        } else {
            outliers.onFailure(invoker, sent, settings, current.state);
        }
        outliers.checkLatency(settings, current.state, stats);
    }

    /** {@link #invokeProvider(Invoker, Invocation, CallOptions)} with the invocation's current options. */
    protected final Result invokeProvider(Invoker<T> invoker, Invocation invocation) {
        return invokeProvider(invoker, invocation, invocation.getCallOptions());
    }

    /** Whether the directory's current state lists {@code invoker} as ejected and yet a candidate (no other one is up). */
    private boolean servesWhileEjected(Invoker<T> invoker) {
        if (!(directory instanceof AbstractDirectory<T> published)) {
            return false;
        }
        DirectoryState<T> state = published.state();
        return state.ejected().contains(invoker) && state.candidates().contains(invoker);
    }

    /**
     * Calls {@code invoker} once; when it answers {@link RpcException#NOT_PROCESSED} (the request
     * never reached the service, so calling elsewhere cannot run it twice) calls once more on
     * another provider of {@code invokers}, chosen as by {@link #select}, unless the call was
     * cancelled or its deadline passed. Every strategy that calls one provider uses this, so even
     * {@code failfast} survives a provider that refused before processing.
     *
     * <p>The attempt is numbered 1, or {@code callerOptions}' own number when it has one (a fork of
     * {@code forking} is attempt 2, 3, ... of its call); the call elsewhere is the next number.
     */
    protected final Result invokeOnce(Invocation invocation, Invoker<T> invoker, List<Invoker<T>> invokers, MethodPlan<T> plan,
                                      CallOptions callerOptions) {
        int attempt = Math.max(1, callerOptions.attempt());
        Result first = invokeProvider(invoker, invocation, attemptOptions(callerOptions, attempt));
        if (first.isDone() && Results.failureOf(first) == null) {
            return first;
        }
        return Results.then(first, (result, failure) -> {
            if (failure == null) {
                return result;
            }
            if (!(failure instanceof RpcException e && e.isNotProcessed()) || invokers.size() < 2 || stopped(callerOptions) != null) {
                return AsyncResult.failed(failure);
            }
            Invoker<T> other = select(invocation, invokers, List.of(invoker), plan);
            if (other == invoker || !mayRetry(invocation, failure)) {
                return AsyncResult.failed(failure);
            }
            return invokeProvider(other, invocation, attemptOptions(callerOptions, attempt + 1));
        });
    }

    /**
     * Why no further attempt may start: a {@link RpcException#CANCELLED} error when the caller
     * cancelled the call, a {@link RpcException#TIMEOUT_EXCEPTION} one when its deadline passed;
     * {@code null} when attempts may go on.
     */
    protected static RpcException stopped(CallOptions callerOptions) {
        if (callerOptions.cancellation().isCancelled()) {
            return new RpcException(RpcException.CANCELLED, "the call was cancelled by its caller");
        }
        Deadline deadline = callerOptions.deadline();
        if (deadline != null && deadline.isExpired()) {
            return new RpcException(RpcException.TIMEOUT_EXCEPTION, "the call's deadline passed (key: call-timeout)");
        }
        return null;
    }

    // ------------------------------------------------------------------ errors

    /** Whether {@code failure} is the service's own answer, never retried. */
    protected static boolean isBiz(Throwable failure) {
        return failure instanceof RpcException && ((RpcException) failure).isBiz();
    }

    /**
     * Whether another provider may be tried after {@code failure}, a failure that ended an attempt
     * (never the service's own exception, which arrives in the result): not for a business
     * {@link RpcException}, a {@link RpcException#SERIALIZATION_EXCEPTION} (arguments that cannot be
     * sent, or an answer the provider could not encode after running the call), a
     * {@link RpcException#CANCELLED} call, or a JVM error; yes for network, timeout,
     * {@code NOT_PROCESSED} and unexpected failures of the path.
     */
    protected static boolean isRetryable(Throwable failure) {
        if (failure instanceof RpcException e) {
            return !e.isBiz() && !e.isSerialization() && !e.isCancelled();
        }
        return !(failure instanceof VirtualMachineError);
    }

    /** Rethrows JVM errors (out of memory, stack overflow) that no strategy should absorb. */
    protected static void rethrowIfFatal(Throwable failure) {
        if (failure instanceof VirtualMachineError) {
            throw (VirtualMachineError) failure;
        }
    }

    /**
     * What a strategy throws when it gives up after {@code failure}: a business exception unchanged;
     * else an {@link RpcException} with {@code text} followed by {@link #brief} of the failure, the
     * failure's code ({@code UNKNOWN_EXCEPTION} when it is not an {@code RpcException}) and the failure
     * as its cause. A JVM error ({@link #rethrowIfFatal}) is rethrown instead.
     */
    protected static RpcException giveUp(String text, Throwable failure) {
        rethrowIfFatal(failure);
        if (isBiz(failure)) {
            return (RpcException) failure;
        }
        int code = failure instanceof RpcException ? ((RpcException) failure).getCode() : RpcException.UNKNOWN_EXCEPTION;
        return new RpcException(code, text + brief(failure), failure);
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
        return invokers.stream().map(AbstractClusterInvoker::describe).collect(Collectors.joining(", ", "[", "]"));
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
