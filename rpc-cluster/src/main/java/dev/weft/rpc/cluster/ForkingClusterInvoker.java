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

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Calls {@code forks} distinct available invokers (method level, default 2; {@code <= 0} or at
 * least the number of invokers means all available ones; each fork beyond the first granted by the
 * service's {@link RetryBudget}) in parallel and ends with the first
 * answer: a result (even one carrying the service's exception) or a business exception. Each fork
 * is started on the cluster's bounded executor (so in-process providers that run on the calling
 * thread run in parallel); no thread waits for the answers: each fork's end is observed on its
 * result. An {@link Error} from a provider ends the call at once, as every strategy does. Fails
 * only when every fork failed, with the last cause and its code. Ends at most {@code timeout} ms
 * (method level, default 1000) after it started, with a {@link RpcException#TIMEOUT_EXCEPTION}
 * error; never with {@code null}. When the forking cluster closes, pending calls fail at once; a
 * call its caller cancels ends at once with {@link RpcException#CANCELLED}.
 * Each fork calls its provider with its own copy of the invocation (attempt 1, 2, ... of the call, as
 * meters and spans number it) and its own {@link Cancellation}.
 * When the call ends (first answer, failure of all, timeout, cancel, close), forks still queued are
 * not started and the ones running are cancelled: the protocol tells their providers, which skip
 * the call if it is still queued and cancel the future an async implementation returned; a losing
 * fork's result is ignored. Thread-safe.
 */
final class ForkingClusterInvoker<T> extends AbstractClusterInvoker<T> {

    /** Consumer/method URL key: how many providers to call in parallel. */
    public static final String FORKS_KEY = "forks";
    /** Consumer/method URL key: how long to wait for the first answer, in ms. */
    public static final String TIMEOUT_KEY = "timeout";
    static final int DEFAULT_FORKS = 2;
    static final int DEFAULT_TIMEOUT_MILLIS = 1000;

    private final ForkingCluster cluster;

    ForkingClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances, ForkingCluster cluster) {
        super(directory, loadBalances);
        this.cluster = cluster;
    }

    /** The method's fork count and wait. */
    private record Forks(int forks, int timeoutMillis) {
    }

    @Override
    protected Object resolve(MethodSettings settings) {
        return new Forks(settings.getInt(FORKS_KEY, DEFAULT_FORKS, Integer.MIN_VALUE, Integer.MAX_VALUE),
                settings.getInt(TIMEOUT_KEY, DEFAULT_TIMEOUT_MILLIS, 1, Integer.MAX_VALUE));
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodPlan<T> plan) {
        if (cluster.isClosed()) {
            throw closed(invocation, plan);
        }
        Forks config = plan.strategySettings();
        List<Invoker<T>> selected = selectForks(invocation, config.forks(), plan);
        Race race = new Race(invocation, plan, selected, config.timeoutMillis());
        cluster.started(race.outcome, () -> race.end(AsyncResult.failed(closed(invocation, plan))));
        race.start();
        return race.outcome;
    }

    private RpcException closed(Invocation invocation, MethodPlan<T> plan) {
        return new RpcException("Forking invoke of " + callSite(invocation) + " refused: the forking cluster is closed (consumer: "
                + plan.url() + ")");
    }

    /**
     * One forking call: its forks race; the first answer, the last failure, the timeout, the
     * caller's cancel or the close ends it, and cancels the forks still queued or running.
     */
    private final class Race {
        private final Invocation invocation;
        private final MethodPlan<T> plan;
        private final List<Invoker<T>> selected;
        private final int timeoutMillis;
        private final AsyncResult outcome = AsyncResult.pending();
        private final AtomicInteger failures = new AtomicInteger();
        /** Guarded by this: the forks not ended yet (queued or running), by their own cancellation. */
        private final List<Cancellation> unfinished;
        /** Guarded by this: the forks' tasks on the forking executor. */
        private final List<Future<?>> tasks;
        /** Guarded by this. */
        private boolean ended;

        Race(Invocation invocation, MethodPlan<T> plan, List<Invoker<T>> selected, int timeoutMillis) {
            this.invocation = invocation;
            this.plan = plan;
            this.selected = selected;
            this.timeoutMillis = timeoutMillis;
            this.unfinished = new ArrayList<>(selected.size());
            this.tasks = new ArrayList<>(selected.size());
        }

        void start() {
            Future<?> timer = cluster.schedule(() -> end(AsyncResult.failed(new RpcException(RpcException.TIMEOUT_EXCEPTION,
                    "Forking invoke of " + callSite(invocation) + " timed out after " + timeoutMillis + " ms waiting for "
                            + selected.size() + " providers " + describeAll(selected) + " (" + failures.get() + " failed; consumer: "
                            + plan.url() + ")"))), timeoutMillis);
            CallOptions callerOptions = invocation.getCallOptions();
            Cancellation.Registration cancelled = callerOptions.cancellation().onCancel(() -> end(AsyncResult.failed(new RpcException(
                    RpcException.CANCELLED, "Forking invoke of " + callSite(invocation) + " cancelled by its caller"))));
            outcome.completion().whenComplete((answer, failure) -> {
                timer.cancel(false);
                cancelled.remove();
            });
            for (int i = 0; i < selected.size(); i++) {
                Invoker<T> invoker = selected.get(i);
                Cancellation own = Cancellation.create();
                synchronized (this) {
                    if (ended) {
                        return;
                    }
                    unfinished.add(own);
                }
                RpcInvocation forkCall = RpcInvocation.copyOf(invocation);
                forkCall.setCallOptions(attemptOptions(callerOptions, i + 1).withCancellation(own));
                try {
                    Future<?> task = cluster.submit(() -> fork(invoker, forkCall, own));
                    synchronized (this) {
                        if (!ended) {
                            tasks.add(task);
                            continue;
                        }
                    }
                    task.cancel(false); // the call ended while this fork was submitted
                } catch (RejectedExecutionException rejected) {
                    forkEnded(own);
                    failed(new RpcException("fork on provider " + describe(invoker) + " refused: the forking executor is "
                            + (cluster.isClosed() ? "closed" : "saturated"), rejected));
                }
            }
        }

        private void fork(Invoker<T> invoker, RpcInvocation forkCall, Cancellation own) {
            if (own.isCancelled()) {
                return; // the call ended while this fork was queued
            }
            Result result;
            try {
                result = invokeOnce(forkCall, invoker, plan.candidates(), plan, forkCall.getCallOptions());
            } catch (VirtualMachineError fatal) {
                end(AsyncResult.failed(fatal));
                throw fatal;
            }
            result.whenComplete((answer, failure) -> {
                forkEnded(own);
                if (failure == null) {
                    end(answer);
                } else if (failure instanceof Error || isBiz(failure)) {
                    end(AsyncResult.failed(failure));
                } else {
                    failed(failure);
                }
            });
        }

        private synchronized void forkEnded(Cancellation own) {
            unfinished.remove(own);
        }

        private void failed(Throwable failure) {
            if (failures.incrementAndGet() == selected.size()) {
                end(AsyncResult.failed(giveUp("Forking invoke of " + callSite(invocation) + " failed on all " + selected.size()
                        + " providers " + describeAll(selected) + " (consumer: " + plan.url() + "); last cause: ", failure)));
            }
        }

        /**
         * Ends the call with {@code result} (once): forks still queued are not started, and the
         * ones running are cancelled through their own {@link Cancellation}, which the protocol
         * passes on to the provider (it skips a queued call, cancels an async implementation's future).
         */
        void end(Result result) {
            List<Cancellation> losers;
            List<Future<?>> queued;
            synchronized (this) {
                if (ended) {
                    return;
                }
                ended = true;
                losers = List.copyOf(unfinished);
                queued = List.copyOf(tasks);
                unfinished.clear();
                tasks.clear();
            }
            queued.forEach(task -> task.cancel(false));
            losers.forEach(Cancellation::cancel); // before the caller sees the answer
            outcome.follow(result); // outside the lock: the caller's callbacks may run here
        }
    }

    /**
     * The invokers to call: all candidates when the forks cover them (checked available now, so a
     * provider that went down is not called, and without those the balancers leave out), else {@code forks} distinct ones chosen by the balancer.
     */
    private List<Invoker<T>> selectForks(Invocation invocation, int forks, MethodPlan<T> plan) {
        List<Invoker<T>> candidates = listCandidates(invocation, plan);
        if (forks <= 0 || forks >= candidates.size()) {
            List<Invoker<T>> all = listCallable(invocation, plan);
            int granted = 1;
            while (granted < all.size() && mayRetry(invocation, null)) {
                granted++;
            }
            return granted == all.size() ? all : all.subList(0, granted);
        }
        List<Invoker<T>> selected = new ArrayList<>(forks);
        while (selected.size() < forks && (selected.isEmpty() || mayRetry(invocation, null))) {
            Invoker<T> invoker = select(invocation, candidates, selected, plan);
            if (selected.contains(invoker)) {
                break;
            }
            selected.add(invoker);
        }
        return selected;
    }
}
