package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ChainScopedFilter;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.protocol.UrlCheckingFilter;
import com.google.common.primitives.Ints;
import dev.weft.rpc.spi.Activate;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Provider filter {@value #NAME}: at most {@value #EXECUTES_KEY}{@code =N} concurrent executions
 * per exported invoker and method ({@code method.executes} overrides {@code executes}; 0, the
 * default, means no limit). A call beyond the limit is answered at once with "server busy", an
 * {@link RpcException} {@link RpcException#NOT_PROCESSED NOT_PROCESSED}: the service did not run,
 * so the consumer's cluster may retry it on another provider.
 *
 * <p>{@value #EXECUTES_KEY}{@code =}{@value #AUTO} finds the limit from the calls' latency instead
 * ({@link AdaptiveLimit}: a Vegas limit anchored on the no-load latency, one limit per exported service
 * and method, held by {@link ExecuteLimits}). A protocol that queues calls for business threads admits
 * them under that limit as it reads them ({@link ExecuteLimits#admitOnReceipt}); this filter leaves
 * such a call ({@link dev.weft.rpc.common.CallOptions#admittedOnReceipt()}) alone, and admits the
 * calls of other protocols itself. Busy answers and
 * the adaptive limits are counted in the director's {@link ExecuteLimits}, which also holds the
 * provider's URL with the override rules addressed to it applied: the limits are read from that
 * one, on each call, so a rule changes them live.
 *
 * <p>Active only when the URL carries the key in some form. Counts are this filter's own, one
 * per chain (that is, per exported invoker) and method, held by the chain's own filter
 * ({@link ChainScopedFilter}), decremented at the real end of the execution (an async
 * implementation counts until its future completes), on every path. Thread-safe.
 */
@Activate(group = FilterChain.PROVIDER, value = ExecuteLimitFilter.EXECUTES_KEY, order = 100)
public final class ExecuteLimitFilter implements UrlCheckingFilter, ChainScopedFilter, ExtensionDirectorAware {

    /** The extension name. */
    public static final String NAME = "executes";
    /** URL key (provider, method): concurrent executions per method; 0 means no limit. */
    public static final String EXECUTES_KEY = "executes";
    /** The value of {@value #EXECUTES_KEY} that makes the limit adaptive. */
    public static final String AUTO = "auto";

    /** Null until the loader hands the director: a filter built directly counts in the default director's. */
    private volatile ExecuteLimits limits;

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        limits = ExecuteLimits.of(director);
    }

    @Override
    public void checkUrl(URL url) {
        UrlKeys.checkNonNegativeIntsOr(url, EXECUTES_KEY, AUTO);
    }

    private static String setting(URL url, String method) {
        return url.getMethodParameter(method, EXECUTES_KEY, "0").trim();
    }

    /** Whether {@code method} runs under {@value #EXECUTES_KEY}{@code =}{@value #AUTO} in {@code url}. */
    static boolean isAdaptive(URL url, String method) {
        return AUTO.equals(setting(url, method));
    }

    /** The filter of one chain, holding that chain's counts. */
    @Override
    public Filter forChain(Invoker<?> invoker) {
        ExecuteLimits counted = limits;
        return new ChainCounts(counted != null ? counted : ExecuteLimits.of(ExtensionDirector.getDefault()));
    }

    /** The executions running through one chain (one exported invoker), by method. */
    private static final class ChainCounts implements Filter {

        private final ConcurrentMap<String, AtomicInteger> running = new ConcurrentHashMap<>();
        private final ExecuteLimits limits;

        ChainCounts(ExecuteLimits limits) {
            this.limits = limits;
        }

        @Override
        public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
            URL url = limits.settingsOf(next.getUrl());
            String method = invocation.getMethodName();
            String setting = setting(url, method);
            if (AUTO.equals(setting)) {
                return invokeAdaptive(next, invocation, method);
            }
            int limit = Objects.requireNonNullElse(Ints.tryParse(setting), 0);
            // counted without a limit too: a rule setting one later counts the executions already running
            AtomicInteger count = running.computeIfAbsent(method, m -> new AtomicInteger());
            int current;
            do {
                current = count.get();
                if (limit > 0 && current >= limit) {
                    limits.busy(next.getInterface().getName() + "#" + method);
                    throw new RpcException(RpcException.NOT_PROCESSED, "Server busy: executions of method " + method + " of "
                            + next.getInterface().getName() + ": " + current + " (expected: below "
                            + EXECUTES_KEY + "=" + limit + "; not run, safe to retry)");
                }
            } while (!count.compareAndSet(current, current + 1));
            Result result;
            try {
                result = next.invoke(invocation);
            } catch (RuntimeException | Error e) {
                count.decrementAndGet();
                throw e;
            }
            return result.whenComplete((value, failure) -> count.decrementAndGet());
        }

        private Result invokeAdaptive(Invoker<?> next, Invocation invocation, String method) {
            if (invocation.getCallOptions().admittedOnReceipt()) {
                return next.invoke(invocation); // the protocol admitted it as it read it, and ends that admission
            }
            String name = next.getInterface().getName() + "#" + method;
            AdaptiveLimit limit = limits.adaptiveLimit(next.getUrl(), next.getInterface().getName(), method);
            AdaptiveLimit.Permit permit = limit.tryAcquire().orElse(null);
            if (permit == null) {
                limits.busy(name);
                throw new RpcException(RpcException.NOT_PROCESSED, "Server busy: executions of method " + method + " of "
                        + next.getInterface().getName() + ": " + limit.inFlight() + " (expected: below the adaptive limit "
                        + limit.limit() + " of " + EXECUTES_KEY + "=" + AUTO + "; not run, safe to retry)");
            }
            Result result;
            try {
                result = next.invoke(invocation);
            } catch (RuntimeException | Error e) {
                permit.ignored();
                throw e;
            }
            // at the real end of the execution
            return result.whenComplete((value, failure) -> end(permit, failure));
        }
    }

    /** Ends an adaptive permit: an answer's latency (a value or a business exception) feeds the limit, a failure's does not. */
    static void end(AdaptiveLimit.Permit permit, Throwable failure) {
        if (failure == null || failure instanceof RpcException e && e.isBiz()) {
            permit.answered();
        } else {
            permit.ignored();
        }
    }
}
