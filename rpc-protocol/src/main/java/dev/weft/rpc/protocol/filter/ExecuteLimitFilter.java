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
import dev.weft.rpc.spi.Activate;

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
 * <p>Active only when the URL carries the key in some form. Counts are this filter's own, one
 * per chain (that is, per exported invoker) and method, held by the chain's own filter
 * ({@link ChainScopedFilter}), decremented at the real end of the execution (an async
 * implementation counts until its future completes), on every path. Thread-safe.
 */
@Activate(group = FilterChain.PROVIDER, value = ExecuteLimitFilter.EXECUTES_KEY, order = 100)
public final class ExecuteLimitFilter implements UrlCheckingFilter, ChainScopedFilter {

    /** The extension name. */
    public static final String NAME = "executes";
    /** URL key (provider, method): concurrent executions per method; 0 means no limit. */
    public static final String EXECUTES_KEY = "executes";

    @Override
    public void checkUrl(URL url) {
        UrlKeys.checkNonNegativeInts(url, EXECUTES_KEY);
    }

    /** The filter of one chain, holding that chain's counts. */
    @Override
    public Filter forChain(Invoker<?> invoker) {
        return new ChainCounts();
    }

    /** The executions running through one chain (one exported invoker), by method. */
    private static final class ChainCounts implements Filter {

        private final ConcurrentMap<String, AtomicInteger> running = new ConcurrentHashMap<>();

        @Override
        public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
            URL url = next.getUrl();
            String method = invocation.getMethodName();
            int limit = url.getMethodParameter(method, EXECUTES_KEY, 0);
            if (limit <= 0) {
                return next.invoke(invocation);
            }
            AtomicInteger count = running.computeIfAbsent(method, m -> new AtomicInteger());
            int current;
            do {
                current = count.get();
                if (current >= limit) {
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
    }
}
