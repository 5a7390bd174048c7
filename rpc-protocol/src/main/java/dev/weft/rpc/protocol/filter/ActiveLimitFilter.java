package dev.weft.rpc.protocol.filter;

import com.google.common.base.Ticker;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Deadline;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ChainScopedFilter;
import dev.weft.rpc.protocol.Filter;
import dev.weft.rpc.protocol.FilterChain;
import dev.weft.rpc.protocol.UrlCheckingFilter;
import dev.weft.rpc.spi.Activate;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionDirectorAware;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Consumer filter {@value #NAME}: at most {@value #ACTIVES_KEY}{@code =N} calls in flight per
 * provider invoker and method ({@code method.actives} overrides {@code actives}; 0, the default,
 * means no limit). A call beyond the limit waits for a permit up to the call's deadline: the
 * invocation's {@code timeout} attachment when present, else the method's {@code timeout} key
 * (default {@value #DEFAULT_TIMEOUT_MILLIS} ms), and never past the call's own deadline
 * ({@link CallOptions#deadline()}), then fails with an {@link RpcException}
 * {@link RpcException#NOT_PROCESSED NOT_PROCESSED}: nothing was sent, so the cluster may try
 * another provider. The wait comes off the deadline, not on top of it: a call that waited is
 * handed on with its call options' deadline narrowed to the end of that wait (measured on the
 * director's ticker), so the protocol's deadline ends when the attempt's does; the cluster gives
 * each attempt its own options, so a retry elsewhere gets a whole deadline. An attachment that is not a number of milliseconds above 0 fails the call as
 * bad input (not {@code NOT_PROCESSED}, which would send it round every provider), as the
 * protocol would.
 *
 * <p><b>Live limits.</b> The limit is read per call from the URL the call's provider is seen with
 * ({@link CallOptions#urlOf}): a registry directory's view carrying override rules, else the
 * refer URL. So an operator's override that adds, changes or removes {@code actives} applies to
 * the next call, over the chain and connection the provider already has. For the same reason the
 * filter is on every consumer chain (take it out with {@code filter=-actives}), not only on chains
 * whose refer URL names the key: a limit may arrive after the chain is built. A call with no limit
 * costs two URL lookups and allocates nothing. Why per call rather than a new chain per view: the
 * chain is built once per referred invoker and holds the permits, so reading the limit per call
 * keeps one set of permits across every limit an operator sets, with no chain to rebuild and no
 * state to carry from an old chain to a new one; the view URL travels as a field of the
 * call options, not an attachment, so it never reaches the provider. Values are checked when a
 * chain is built and when a directory reads an override rule ({@link UrlCheckingFilter}), never
 * at call time.
 *
 * <p><b>Permits.</b> The permits are this filter's own: one counter per chain (that is, per
 * referred invoker) and method, held by the chain's own filter ({@link ChainScopedFilter}) and
 * shared by every view of that invoker, released at the real end of the call (an async call holds
 * its permit until its result completes), on every path (result, business exception, failure);
 * counters go with their chain. A
 * call holding a permit when the limit changes keeps it and releases it normally; the new limit
 * is compared with the permits held, so lowering it admits nobody until enough calls return.
 * Calls started while no limit applied hold no permit and are not counted. Thread-safe.
 */
@Activate(group = FilterChain.CONSUMER, order = 100)
public final class ActiveLimitFilter implements UrlCheckingFilter, ChainScopedFilter, ExtensionDirectorAware {

    /** The extension name. */
    public static final String NAME = "actives";
    /** URL key (consumer, method): calls in flight per provider and method; 0 means no limit. */
    public static final String ACTIVES_KEY = "actives";
    /** The call deadline (URL key declared by {@code rpc-cluster}, and per-call attachment); read here as the longest wait. */
    static final String TIMEOUT_KEY = "timeout";
    /** The wait when {@code timeout} is absent, the same as the call deadline's default. */
    static final int DEFAULT_TIMEOUT_MILLIS = 1000;

    /** The director's clock, which measures the wait for a permit. */
    private volatile Ticker ticker = Ticker.systemTicker();

    @Override
    public void checkUrl(URL url) {
        UrlKeys.checkNonNegativeInts(url, ACTIVES_KEY);
    }

    @Override
    public void setExtensionDirector(ExtensionDirector director) {
        ticker = director.getTicker();
    }

    /** The filter of one chain, holding that chain's permits. */
    @Override
    public Filter forChain(Invoker<?> invoker) {
        return new ChainPermits(ticker);
    }

    /** The permits of one chain (one referred invoker), by method. */
    private static final class ChainPermits implements Filter {

        private final ConcurrentMap<String, Permits> byMethod = new ConcurrentHashMap<>();
        private final Ticker ticker;

        ChainPermits(Ticker ticker) {
            this.ticker = ticker;
        }

        @Override
        public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
            URL url = CallOptions.urlOf(next, invocation);
            String method = invocation.getMethodName();
            int limit = url.getMethodParameter(method, ACTIVES_KEY, 0);
            if (limit <= 0) {
                return next.invoke(invocation);
            }
            Permits permits = byMethod.computeIfAbsent(method, m -> new Permits());
            Invocation passedOn = invocation;
            if (!permits.tryAcquire(limit)) {
                long timeoutMillis = timeoutMillis(url, invocation);
                Deadline waitEnd = Deadline.after(timeoutMillis, TimeUnit.MILLISECONDS, ticker)
                        .minimum(invocation.getCallOptions().deadline());
                long waitNanos = waitEnd.timeRemaining(TimeUnit.NANOSECONDS);
                if (!permits.acquire(limit, waitNanos)) {
                    throw refused(method, url, limit, timeoutMillis);
                }
                if (waitEnd.isExpired()) {
                    permits.release();
                    throw refused(method, url, limit, timeoutMillis);
                }
                passedOn = withDeadline(invocation, waitEnd);
            }
            Result result;
            try {
                result = next.invoke(passedOn);
            } catch (RuntimeException | Error e) {
                permits.release();
                throw e;
            }
            return result.whenComplete((value, failure) -> permits.release());
        }
    }

    private static RpcException refused(String method, URL url, int limit, long timeoutMillis) {
        return new RpcException(RpcException.NOT_PROCESSED, "Calls in flight of method " + method + " to "
                + url.getAddress() + ": " + limit + " still after waiting " + timeoutMillis + " ms (expected: below "
                + ACTIVES_KEY + "=" + limit + "; not sent, safe to retry) on " + url);
    }

    /** {@code invocation} whose call options end at {@code deadline} (this attempt's options: the cluster sets each attempt's). */
    private static Invocation withDeadline(Invocation invocation, Deadline deadline) {
        RpcInvocation target = invocation instanceof RpcInvocation rpc ? rpc : RpcInvocation.copyOf(invocation);
        return target.setCallOptions(invocation.getCallOptions().withEarlierDeadline(deadline));
    }

    private static long timeoutMillis(URL url, Invocation invocation) {
        String attached = invocation.getAttachment(TIMEOUT_KEY);
        if (attached == null || attached.isEmpty()) {
            return url.getMethodParameter(invocation.getMethodName(), TIMEOUT_KEY, (long) DEFAULT_TIMEOUT_MILLIS);
        }
        long timeout;
        try {
            timeout = Long.parseLong(attached.trim());
        } catch (NumberFormatException e) {
            timeout = 0;
        }
        if (timeout <= 0) {
            // bad input, not a refusal: NOT_PROCESSED would send it round every provider
            throw new RpcException("attachment " + TIMEOUT_KEY + ": " + attached + " (expected: milliseconds > 0) for "
                    + RpcInvocation.signature(invocation) + " to " + url);
        }
        return timeout;
    }

    /**
     * The in-flight count of one method of one invoker; waiters queue on a condition. Each waiter
     * compares with the limit its call read, and the limit may change between calls, so a release
     * wakes every waiter: waking one whose limit is still reached would strand one whose limit is not.
     */
    private static final class Permits {

        private final ReentrantLock lock = new ReentrantLock();
        private final Condition released = lock.newCondition();
        private int inFlight;

        /** Takes a permit if fewer than {@code limit} are taken, without waiting. */
        boolean tryAcquire(int limit) {
            lock.lock();
            try {
                if (inFlight >= limit) {
                    return false;
                }
                inFlight++;
                return true;
            } finally {
                lock.unlock();
            }
        }

        /** Takes a permit, waiting up to {@code timeoutNanos} while {@code limit} are taken. */
        boolean acquire(int limit, long timeoutNanos) {
            lock.lock();
            try {
                long remaining = timeoutNanos;
                while (inFlight >= limit) {
                    if (remaining <= 0) {
                        return false;
                    }
                    remaining = released.awaitNanos(remaining);
                }
                inFlight++;
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new RpcException(RpcException.NOT_PROCESSED, "Interrupted while waiting for a permit (not sent, safe to retry)", e);
            } finally {
                lock.unlock();
            }
        }

        void release() {
            lock.lock();
            try {
                inFlight--;
                released.signalAll();
            } finally {
                lock.unlock();
            }
        }
    }
}
