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
 * least the number of invokers means all available ones) in parallel and ends with the first
 * answer: a result (even one carrying the service's exception) or a business exception. Each fork
 * is started on the cluster's bounded executor (so in-process providers that run on the calling
 * thread run in parallel); no thread waits for the answers: each fork's end is observed on its
 * result. An {@link Error} from a provider ends the call at once, as every strategy does. Fails
 * only when every fork failed, with the last cause and its code. Ends at most {@code timeout} ms
 * (method level, default 1000) after it started, with a {@link RpcException#TIMEOUT_EXCEPTION}
 * error; never with {@code null}. When the forking cluster closes, pending calls fail at once; a
 * call its caller cancels ends at once with {@link RpcException#CANCELLED}.
 * Forks still queued when the answer arrives are not started; running ones finish and their
 * results are ignored. Each fork calls its provider with its own copy of the invocation (attempt
 * 1, 2, ... in its call options) and shares the caller's cancellation. Thread-safe.
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

    /** One forking call: its forks race; the first answer, the last failure, the timeout or the close ends it. */
    private final class Race {
        private final Invocation invocation;
        private final MethodPlan<T> plan;
        private final List<Invoker<T>> selected;
        private final int timeoutMillis;
        private final AsyncResult outcome = AsyncResult.pending();
        private final AtomicInteger failures = new AtomicInteger();
        private final List<Future<?>> queued;

        Race(Invocation invocation, MethodPlan<T> plan, List<Invoker<T>> selected, int timeoutMillis) {
            this.invocation = invocation;
            this.plan = plan;
            this.selected = selected;
            this.timeoutMillis = timeoutMillis;
            this.queued = new ArrayList<>(selected.size());
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
                synchronized (queued) {
                    queued.forEach(fork -> fork.cancel(false)); // forks still queued are not needed any more
                }
            });
            for (int i = 0; i < selected.size(); i++) {
                Invoker<T> invoker = selected.get(i);
                RpcInvocation forkCall = RpcInvocation.copyOf(invocation);
                forkCall.setCallOptions(attemptOptions(callerOptions, i + 1));
                try {
                    Future<?> fork = cluster.submit(() -> fork(invoker, forkCall));
                    synchronized (queued) {
                        queued.add(fork);
                    }
                } catch (RejectedExecutionException rejected) {
                    failed(new RpcException("fork on provider " + describe(invoker) + " refused: the forking executor is "
                            + (cluster.isClosed() ? "closed" : "saturated"), rejected));
                }
            }
            if (outcome.isDone()) {
                synchronized (queued) {
                    queued.forEach(fork -> fork.cancel(false));
                }
            }
        }

        private void fork(Invoker<T> invoker, RpcInvocation forkCall) {
            if (outcome.isDone()) {
                return;
            }
            Result result;
            try {
                result = invokeOnce(forkCall, invoker, plan.candidates(), plan, forkCall.getCallOptions());
            } catch (VirtualMachineError fatal) {
                end(AsyncResult.failed(fatal));
                throw fatal;
            }
            result.whenComplete((answer, failure) -> {
                if (failure == null) {
                    end(answer);
                } else if (failure instanceof Error || isBiz(failure)) {
                    end(AsyncResult.failed(failure));
                } else {
                    failed(failure);
                }
            });
        }

        private void failed(Throwable failure) {
            if (failures.incrementAndGet() == selected.size()) {
                end(AsyncResult.failed(giveUp("Forking invoke of " + callSite(invocation) + " failed on all " + selected.size()
                        + " providers " + describeAll(selected) + " (consumer: " + plan.url() + "); last cause: ", failure)));
            }
        }

        void end(Result result) {
            if (!outcome.isDone()) {
                outcome.follow(result);
            }
        }
    }

    /**
     * The invokers to call: all candidates when the forks cover them (checked available now, so a
     * provider that went down is not called, and without those the balancers leave out), else {@code forks} distinct ones chosen by the balancer.
     */
    private List<Invoker<T>> selectForks(Invocation invocation, int forks, MethodPlan<T> plan) {
        List<Invoker<T>> candidates = listCandidates(invocation, plan);
        if (forks <= 0 || forks >= candidates.size()) {
            return listCallable(invocation, plan);
        }
        List<Invoker<T>> selected = new ArrayList<>(forks);
        while (selected.size() < forks) {
            Invoker<T> invoker = select(invocation, candidates, selected, plan);
            if (selected.contains(invoker)) {
                break;
            }
            selected.add(invoker);
        }
        return selected;
    }
}
