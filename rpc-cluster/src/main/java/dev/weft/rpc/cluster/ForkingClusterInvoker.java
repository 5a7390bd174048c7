package dev.weft.rpc.cluster;

import com.google.common.base.Preconditions;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.loadbalance.LoadBalance;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

/**
 * Calls {@code forks} distinct invokers (method level, default 2; {@code <= 0} or at least the
 * number of invokers means all) in parallel on the cluster's bounded executor and returns the
 * first answer: a result (even one carrying the service's exception) or a business exception,
 * which is thrown unchanged. Fails only when every fork failed, with the last cause and its code.
 * Waits at most {@code timeout} ms (method level, default 1000) and then throws a
 * {@link RpcException#TIMEOUT_EXCEPTION} error; it never returns {@code null}. Forks still queued
 * when the answer arrives are cancelled; running ones finish and their results are ignored.
 * Thread-safe.
 */
final class ForkingClusterInvoker<T> extends AbstractClusterInvoker<T> {

    /** Consumer/method URL key: how many providers to call in parallel. */
    public static final String FORKS_KEY = "forks";
    /** Consumer/method URL key: how long to wait for the first answer, in ms. */
    public static final String TIMEOUT_KEY = "timeout";
    static final int DEFAULT_FORKS = 2;
    static final int DEFAULT_TIMEOUT_MILLIS = 1000;

    private final ExecutorService executor;

    ForkingClusterInvoker(Directory<T> directory, Function<String, LoadBalance> loadBalances, ExecutorService executor) {
        super(directory, loadBalances);
        this.executor = executor;
    }

    @Override
    protected Result doInvoke(Invocation invocation, MethodSettings<T> settings) {
        String method = invocation.getMethodName();
        int timeout = settings.url().getMethodParameter(method, TIMEOUT_KEY, DEFAULT_TIMEOUT_MILLIS);
        Preconditions.checkArgument(timeout > 0, "%s: %s (expected: > 0 ms; consumer: %s)", TIMEOUT_KEY, timeout, settings.url());
        int forks = settings.url().getMethodParameter(method, FORKS_KEY, DEFAULT_FORKS);
        if (executor.isShutdown()) {
            throw new RpcException("Forking invoke of " + callSite(invocation) + " refused: the forking cluster is closed (consumer: "
                    + settings.url() + ")");
        }
        List<Invoker<T>> selected = selectForks(invocation, listCandidates(invocation), forks, settings);

        int count = selected.size();
        LinkedBlockingQueue<Object> answers = new LinkedBlockingQueue<>();
        AtomicInteger failures = new AtomicInteger();
        List<Future<?>> futures = new ArrayList<>(count);
        for (Invoker<T> invoker : selected) {
            try {
                futures.add(executor.submit(() -> fork(invoker, invocation, answers, failures, count)));
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
            cancel(futures);
            throw new RpcException("Forking invoke of " + callSite(invocation) + " interrupted while waiting for " + count
                    + " providers", e);
        }
        cancel(futures);
        if (answer instanceof Result) {
            return (Result) answer;
        }
        if (answer == null) {
            throw new RpcException(RpcException.TIMEOUT_EXCEPTION, "Forking invoke of " + callSite(invocation) + " timed out after "
                    + timeout + " ms waiting for " + count + " providers " + describeAll(selected) + " (" + failures.get()
                    + " failed; consumer: " + settings.url() + ")");
        }
        Throwable failure = (Throwable) answer;
        if (isBiz(failure)) {
            throw (RpcException) failure;
        }
        throw new RpcException(codeOf(failure), "Forking invoke of " + callSite(invocation) + " failed on all " + count
                + " providers " + describeAll(selected) + " (consumer: " + settings.url() + "); last cause: " + brief(failure), failure);
    }

    private void fork(Invoker<T> invoker, Invocation invocation, LinkedBlockingQueue<Object> answers, AtomicInteger failures,
                      int count) {
        try {
            Result result = invokeProvider(invoker, invocation);
            answers.offer(result != null ? result : RpcResult.of(null));
        } catch (Throwable failure) {
            rethrowIfFatal(failure);
            if (isBiz(failure) || failures.incrementAndGet() == count) {
                answers.offer(failure);
            }
        }
    }

    private List<Invoker<T>> selectForks(Invocation invocation, List<Invoker<T>> invokers, int forks, MethodSettings<T> settings) {
        if (forks <= 0 || forks >= invokers.size()) {
            return invokers;
        }
        List<Invoker<T>> selected = new ArrayList<>(forks);
        while (selected.size() < forks) {
            Invoker<T> invoker = select(invocation, invokers, selected, settings);
            if (selected.contains(invoker)) {
                break;
            }
            selected.add(invoker);
        }
        return selected;
    }

    private static void cancel(List<Future<?>> futures) {
        for (Future<?> future : futures) {
            future.cancel(false);
        }
    }
}
