package dev.weft.rpc.cluster;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.loadbalance.MethodSettings;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Future;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Sends each call to one provider and, while no answer has come, a hedge to another provider not
 * tried yet every {@value #HEDGE_DELAY_KEY} (method level first), at most {@value #HEDGES_KEY}
 * hedges (default 1). The delay is fixed ({@code 50ms}) or a percentile of the method's recent
 * latency ({@code p95}, the default, or {@code p99}, ...): the lower median over the providers of
 * each provider's own percentile ({@link RecentLatency}), so one slow provider does not set it;
 * until some provider has {@value RecentLatency#MIN_SAMPLES} successful attempts of a method, its
 * calls are not hedged. Every hedge is granted by the service's {@link RetryBudget}; a refused one
 * is not sent.
 *
 * <p>A hedge is started on the call's executor ({@link CallOptions#executor()}: the waiting
 * caller's thread for a sync call), else on the cluster's own; never on the timer thread, which
 * only hands it over, so a slow filter chain of one hedge delays no other call's hedge.
 *
 * <p>The first answer (a result, or the service's exception) wins; the attempts still running are
 * cancelled through their own {@link Cancellation}, which the protocol passes on to the provider.
 * A failure a retry would follow does not end the call while another attempt runs; when none runs,
 * the next hedge starts at once, and when no hedge is left the call fails with the last failure.
 * A failure no retry would follow (serialization, cancelled) ends the call. Counted in the service's
 * {@link ServiceResilience}: hedges sent and hedges won. Thread-safe.
 */
final class HedgingClusterInvoker<T> extends AbstractClusterInvoker<T> {

    /** Consumer/method URL key: when a hedge is sent, a duration ({@code 50ms}) or a percentile ({@code p95}). */
    public static final String HEDGE_DELAY_KEY = "hedge-delay";
    /** Consumer/method URL key: the most hedges per call. */
    public static final String HEDGES_KEY = "hedges";
    static final String DEFAULT_HEDGE_DELAY = "p95";
    static final int DEFAULT_HEDGES = 1;

    private static final Pattern PERCENTILE = Pattern.compile("p(\\d{1,2}(\\.\\d{1,3})?)");
    /** Methods whose latency is kept; calls of further (generic) method names are not hedged by percentile. */
    private static final int MAX_METHODS = 1024;

    private final HedgingCluster cluster;
    private final ConcurrentHashMap<String, RecentLatency> latencies = new ConcurrentHashMap<>();

    HedgingClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances, HedgingCluster cluster) {
        super(directory, loadBalances);
        this.cluster = cluster;
    }

    /**
     * A method's hedging: {@code hedges} at most, after {@code fixedNanos}, or (when that is
     * negative) after the {@code percentile} of its recent latency.
     */
    record Hedging(int hedges, long fixedNanos, double percentile) {
    }

    @Override
    protected Object resolve(MethodSettings settings) {
        int hedges = settings.getInt(HEDGES_KEY, DEFAULT_HEDGES, 0, 16);
        String delay = settings.getString(HEDGE_DELAY_KEY, DEFAULT_HEDGE_DELAY);
        Matcher percentile = PERCENTILE.matcher(delay);
        if (percentile.matches()) {
            double value = Double.parseDouble(percentile.group(1));
            if (value <= 0) {
                throw settings.invalid(HEDGE_DELAY_KEY, delay, "a percentile from p1 to p99.999, or a duration such as 50ms");
            }
            return new Hedging(hedges, -1, value);
        }
        if (!Character.isDigit(delay.charAt(0))) {
            throw settings.invalid(HEDGE_DELAY_KEY, delay, "a percentile such as p95 or p99, or a duration such as 50ms");
        }
        Duration fixed = settings.getDuration(HEDGE_DELAY_KEY, null, Duration.ZERO, Duration.ofMinutes(10));
        return new Hedging(hedges, fixed.toNanos(), 0);
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
        Hedging hedging = plan.strategySettings();
        List<Invoker<T>> invokers = listCandidates(invocation, plan);
        RecentLatency latency = latencyOf(invocation.getMethodName());
        Race race = new Race(invocation, plan, hedging, latency);
        Invoker<T> first = select(invocation, invokers, null, plan);
        race.scheduleHedge(first); // before the first attempt starts: an in-process provider may run it on this thread
        race.launch(first);
        return race.outcome;
    }

    /** The hedge delay {@code hedge-delay=p<percentile>} gives {@code method} now; -1 while unknown. For tests. */
    long percentileDelayNanos(String method, double percentile) {
        RecentLatency known = latencies.get(method);
        return known == null ? -1 : known.percentileNanos(percentile);
    }

    private RecentLatency latencyOf(String method) {
        RecentLatency known = latencies.get(method);
        if (known != null || latencies.size() >= MAX_METHODS) {
            return known;
        }
        return latencies.computeIfAbsent(method, m -> new RecentLatency());
    }

    /** One hedged call: its attempts race; the first answer, or the last failure, ends it. */
    private final class Race {
        private final Invocation invocation;
        private final MethodPlan<T> plan;
        private final Hedging hedging;
        private final RecentLatency latency;
        private final CallOptions callerOptions;
        private final AsyncResult outcome = AsyncResult.pending();
        /** Guarded by this: what was tried, what runs, what is left. */
        private List<Invoker<T>> tried;
        private final List<Cancellation> running = new ArrayList<>(2);
        private int attempts;
        private int hedgesLeft;
        private Throwable lastFailure;
        private Future<?> nextHedge;
        private boolean ended;

        Race(Invocation invocation, MethodPlan<T> plan, Hedging hedging, RecentLatency latency) {
            this.invocation = invocation;
            this.plan = plan;
            this.hedging = hedging;
            this.latency = latency;
            this.callerOptions = invocation.getCallOptions();
            this.hedgesLeft = hedging.hedges();
            Cancellation.Registration cancelled = callerOptions.cancellation().onCancel(() -> end(AsyncResult.failed(
                    new RpcException(RpcException.CANCELLED, "Hedged invoke of " + callSite(invocation) + " cancelled by its caller"))));
            outcome.completion().whenComplete((answer, failure) -> cancelled.remove());
        }

        /** Starts an attempt on {@code invoker}, with its own copy of the invocation and its own cancellation. */
        void launch(Invoker<T> invoker) {
            Cancellation own = Cancellation.create();
            int attempt;
            synchronized (this) {
                tried = markTried(tried, invoker, hedging.hedges() + 1);
                running.add(own);
                attempt = ++attempts;
            }
            RpcInvocation copy = RpcInvocation.copyOf(invocation);
            long started = ticker().read();
            Result result = invokeProvider(invoker, copy, attemptOptions(callerOptions, attempt).withCancellation(own));
            result.whenComplete((answer, failure) -> ended(invoker, attempt, own, started, answer, failure));
        }

        /** Marks {@code first} tried, then schedules the first hedge. */
        void scheduleHedge(Invoker<T> first) {
            synchronized (this) {
                tried = markTried(tried, first, hedging.hedges() + 1);
            }
            scheduleHedge();
        }

        /** Schedules the next hedge after the delay, when one is left and the delay is known. */
        void scheduleHedge() {
            long delay = hedging.fixedNanos() >= 0 ? hedging.fixedNanos()
                    : latency == null ? -1 : latency.percentileNanos(hedging.percentile());
            synchronized (this) {
                if (delay < 0 || hedgesLeft == 0 || ended) {
                    return;
                }
                nextHedge = cluster.schedule(this::hedge, delay, callerOptions.executor());
            }
        }

        /** Sends a hedge to a provider not tried yet, when one is left, the call still runs and the budget grants it. */
        private void hedge() {
            Invoker<T> next;
            synchronized (this) {
                if (ended || hedgesLeft == 0 || stopped(callerOptions) != null) {
                    return;
                }
                List<Invoker<T>> invokers;
                try {
                    invokers = listInvokers(invocation);
                } catch (RpcException none) {
                    return;
                }
                next = select(invocation, invokers, tried, plan);
                if (tried.contains(next) || !mayRetry(invocation, lastFailure)) {
                    next = null;
                    hedgesLeft = 0;
                } else {
                    hedgesLeft--;
                }
            }
            if (next == null) {
                return; // no untried provider, or the budget refused: the attempts running decide, or ended() ends the call
            }
            resilience().hedgeSent();
            launch(next);
            scheduleHedge();
        }

        private void ended(Invoker<T> invoker, int attempt, Cancellation own, long started, Result answer, Throwable failure) {
            boolean runningNone;
            synchronized (this) {
                running.remove(own);
                runningNone = running.isEmpty();
            }
            if (failure == null || isBiz(failure) || failure instanceof Error) {
                if (failure == null && latency != null) {
                    latency.record(invoker, ticker().read() - started);
                }
                end(failure == null ? answer : AsyncResult.failed(failure), attempt);
                return;
            }
            synchronized (this) {
                lastFailure = failure;
            }
            if (!isRetryable(failure)) {
                end(AsyncResult.failed(giveUpNow(failure)));
            } else if (runningNone) {
                hedge(); // nothing runs: the next hedge now, rather than after the delay
                synchronized (this) {
                    if (!running.isEmpty() || ended) {
                        return;
                    }
                }
                endWithLastFailure();
            }
        }

        private void endWithLastFailure() {
            Throwable last;
            synchronized (this) {
                last = lastFailure;
            }
            end(AsyncResult.failed(giveUpNow(last)));
        }

        private RpcException giveUpNow(Throwable failure) {
            List<Invoker<T>> attempted;
            synchronized (this) {
                attempted = List.copyOf(tried);
            }
            return giveUp("Hedged invoke of " + callSite(invocation) + " failed after " + attempted.size() + " attempts on "
                    + describeAll(attempted) + " (hedges=" + hedging.hedges() + "; consumer: " + plan.url() + "); last cause: ", failure);
        }

        /** Ends the call with {@code result} (once) and cancels the attempts still running; true when this call ended it. */
        private boolean end(Result result) {
            return end(result, 0);
        }

        /**
         * {@link #end(Result)} with the answer of attempt {@code winner} (0: no attempt's); a hedge's
         * win is counted before the caller sees the answer.
         */
        private boolean end(Result result, int winner) {
            List<Cancellation> losers;
            synchronized (this) {
                if (ended) {
                    return false;
                }
                ended = true;
                losers = List.copyOf(running);
                running.clear();
                if (nextHedge != null) {
                    nextHedge.cancel(false);
                }
            }
            losers.forEach(Cancellation::cancel); // before the caller sees the answer
            if (winner > 1) {
                resilience().hedgeWon();
            }
            outcome.follow(result); // outside the lock: the caller's callbacks may run here
            return true;
        }
    }
}
