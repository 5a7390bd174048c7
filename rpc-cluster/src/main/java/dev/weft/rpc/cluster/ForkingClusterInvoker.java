package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.loadbalance.LoadBalance;
import dev.weft.rpc.loadbalance.MethodSettings;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Calls {@code forks} distinct available invokers (method level, default 2; {@code <= 0} or at
 * least the number of invokers means all available ones; each fork beyond the first granted by the
 * service's {@link RetryBudget}) in parallel on the cluster's bounded
 * executor and returns the first answer: a result (even one carrying the service's exception) or a
 * business exception, which is thrown unchanged. An {@link Error} thrown by a provider is rethrown
 * to the caller at once, as every strategy does. Fails only when every fork failed, with the last
 * cause and its code. Waits at most {@code timeout} ms (method level, default 1000) and then throws
 * a {@link RpcException#TIMEOUT_EXCEPTION} error; it never returns {@code null}. When the forking
 * cluster closes, waiting calls fail at once. Forks still queued when the answer arrives are
 * cancelled; running ones finish and their results are ignored. Each fork calls its provider with
 * its own copy of the invocation. Thread-safe.
 */
final class ForkingClusterInvoker<T> extends AbstractClusterInvoker<T> {

    /** Consumer/method URL key: how many providers to call in parallel. */
    public static final String FORKS_KEY = "forks";
    /** Consumer/method URL key: how long to wait for the first answer, in ms. */
    public static final String TIMEOUT_KEY = "timeout";
    static final int DEFAULT_FORKS = 2;
    static final int DEFAULT_TIMEOUT_MILLIS = 1000;

    /** Offered to every waiting call when the cluster closes. */
    static final Object CLOSED = new Object();

    private final ExecutorService executor;
    private final Set<LinkedBlockingQueue<Object>> waiting;

    ForkingClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances, ExecutorService executor,
                          Set<LinkedBlockingQueue<Object>> waiting) {
        super(directory, loadBalances);
        this.executor = executor;
        this.waiting = waiting;
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
        if (executor.isShutdown()) {
            throw closed(invocation, plan);
        }
        Forks config = plan.strategySettings();
        int timeout = config.timeoutMillis();
        List<Invoker<T>> selected = selectForks(invocation, config.forks(), plan);
        int count = selected.size();
        LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
        List<Future<?>> futures = new ArrayList<>(count);
        waiting.add(answers);
        try {
            AtomicInteger failures = new AtomicInteger();
            for (Invoker<T> invoker : selected) {
                Invocation forkCall = copyOf(invocation);
                try {
                    futures.add(executor.submit(() -> fork(invoker, forkCall, plan, answers, failures, count)));
                } catch (RejectedExecutionException rejected) {
                    RpcException refused = new RpcException("fork on provider " + describe(invoker) + " refused: the forking executor is "
                            + (executor.isShutdown() ? "closed" : "saturated"), rejected);
                    if (failures.incrementAndGet() == count) {
                        answers.offer(refused);
                    }
                }
            }
            Object answer;
            try {
                answer = answers.poll(timeout, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RpcException("Forking invoke of " + callSite(invocation) + " interrupted while waiting for " + count
                        + " providers", e);
            }
            return answer(invocation, plan, selected, answer, failures.get(), timeout);
        } finally {
            waiting.remove(answers);
            futures.forEach(future -> future.cancel(false)); // forks still queued are not needed any more
        }
    }

    private Result answer(Invocation invocation, MethodPlan<T> plan, List<Invoker<T>> selected, Object answer, int failures,
                          int timeout) {
        if (answer instanceof Result) {
            return (Result) answer;
        }
        if (answer == CLOSED) {
            throw closed(invocation, plan);
        }
        if (answer instanceof Error) {
            throw (Error) answer;
        }
        if (executor.isShutdown()) {
            // Closed while this call was between registering and submitting its forks: it missed CLOSED.
            RpcException closed = closed(invocation, plan);
            if (answer instanceof Throwable failure) {
                closed.addSuppressed(failure);
            }
            throw closed;
        }
        int count = selected.size();
        if (answer == null) {
            throw new RpcException(RpcException.TIMEOUT_EXCEPTION, "Forking invoke of " + callSite(invocation) + " timed out after "
                    + timeout + " ms waiting for " + count + " providers " + describeAll(selected) + " (" + failures
                    + " failed; consumer: " + plan.url() + ")");
        }
        throw giveUp("Forking invoke of " + callSite(invocation) + " failed on all " + count + " providers " + describeAll(selected)
                + " (consumer: " + plan.url() + "); last cause: ", (Throwable) answer);
    }

    private RpcException closed(Invocation invocation, MethodPlan<T> plan) {
        return new RpcException("Forking invoke of " + callSite(invocation) + " refused: the forking cluster is closed (consumer: "
                + plan.url() + ")");
    }

    /**
     * A copy of {@code invocation} for one fork, made on the caller's thread: forks run at once on
     * other threads, and an invocation belongs to one call (filters below the cluster add
     * attachments to it in place), so forks never share one.
     */
    private static Invocation copyOf(Invocation invocation) {
        RpcInvocation copy = new RpcInvocation(invocation.getMethodName(), invocation.getParameterTypes(), invocation.getArguments(),
                invocation.getReturnType(), invocation.getGenericReturnType());
        invocation.getAttachments().forEach(copy::setAttachment);
        return copy;
    }

    private void fork(Invoker<T> invoker, Invocation invocation, MethodPlan<T> plan, LinkedBlockingQueue<Object> answers,
                      AtomicInteger failures, int count) {
        try {
            Result result = invokeOnce(invocation, invoker, plan.candidates(), plan);
            answers.offer(result != null ? result : RpcResult.of(null));
        } catch (Error fatal) {
            answers.offer(fatal);
        } catch (Throwable failure) {
            if (isBiz(failure) || failures.incrementAndGet() == count) {
                answers.offer(failure);
            }
        }
    }

    /**
     * The invokers to call: all available ones when the forks cover the list (checked now, so a
     * provider that went down is not called), else {@code forks} distinct ones chosen by the balancer.
     */
    private List<Invoker<T>> selectForks(Invocation invocation, int forks, MethodPlan<T> plan) {
        List<Invoker<T>> candidates = listCandidates(invocation, plan);
        if (forks <= 0 || forks >= candidates.size()) {
            List<Invoker<T>> all = listInvokers(invocation);
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
