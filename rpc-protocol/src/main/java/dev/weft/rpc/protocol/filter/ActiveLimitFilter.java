package dev.weft.rpc.protocol.filter;

import com.google.common.base.Ticker;
import com.google.common.util.concurrent.MoreExecutors;
import com.google.common.util.concurrent.ThreadFactoryBuilder;
import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.CallOptions;
import dev.weft.rpc.common.Cancellation;
import dev.weft.rpc.common.Deadline;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
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

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.Executor;
import java.util.concurrent.Future;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

/**
 * Consumer filter {@value #NAME}: at most {@value #ACTIVES_KEY}{@code =N} calls in flight per
 * provider invoker and method ({@code method.actives} overrides {@code actives}; 0, the default,
 * means no limit). A call beyond the limit waits for a permit, in a queue and without holding a
 * thread: {@code invoke} returns a pending result at once, and the call starts when a permit
 * comes back. It waits up to the call's deadline: the invocation's {@code timeout} attachment when
 * present, else the method's {@code timeout} key (default {@value #DEFAULT_TIMEOUT_MILLIS} ms),
 * and never past the call's own deadline ({@link CallOptions#deadline()}); then it fails with an
 * {@link RpcException} {@link RpcException#NOT_PROCESSED NOT_PROCESSED}: nothing was sent, so the
 * cluster may try another provider. A waiting call its caller cancels ({@link CallOptions#cancellation()})
 * leaves the queue and fails at once with {@link RpcException#CANCELLED}. The wait comes off the
 * deadline, not on top of it: a call that waited is handed on with its call options' deadline
 * narrowed to the end of that wait (measured on the director's ticker), so the protocol's deadline
 * ends when the attempt's does; the cluster gives each attempt its own options, so a retry
 * elsewhere gets a whole deadline. An attachment that is not a number of milliseconds above 0
 * fails the call as bad input (not {@code NOT_PROCESSED}, which would send it round every
 * provider), as the protocol would.
 *
 * <p><b>Where a waiting call goes on.</b> Waiting calls are admitted first come, first served.
 * An admitted call starts on the call's executor ({@link CallOptions#executor()}: for a sync call,
 * the caller's own thread, which waits for its answer anyway), else on the thread that returned the
 * permit (the end of another call), through a {@link MoreExecutors#newSequentialExecutor sequential
 * executor} per method, so a chain of calls that end at once (a provider that is down) runs one
 * after another instead of nesting on the stack. The deadline of a waiting call is kept by one
 * daemon timer thread per director ({@code weft-actives-timer}, started by the first call that
 * waits, stopped after idling); a call that times out ends on its executor, else (an async call)
 * on one of {@value #EXPIRY_THREADS} daemon threads {@code weft-actives-callback-N} (started on
 * demand, stopped after idling): never on the timer's thread, so a caller's callback that blocks
 * delays no other call's deadline. {@link #close()} (called by {@code ExtensionDirector.close()})
 * fails the waiting calls at once and stops both; calls that would wait after it fail at once.
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
 * shared by every view of that invoker, released exactly once at the real end of the call (an
 * async call holds its permit until its result completes), on every path (result, business
 * exception, failure); a permit returned while calls wait goes to the first of them. Counters go
 * with their chain. A call holding a permit when the limit changes keeps it and releases it
 * normally; the newest limit a call of the method read is compared with the permits held, so
 * lowering it admits nobody (waiting calls included) until enough calls return, and raising it
 * admits waiting calls at once. Calls started while no limit applied hold no permit and are not
 * counted. Thread-safe.
 */
@Activate(group = FilterChain.CONSUMER, order = 100)
public final class ActiveLimitFilter implements UrlCheckingFilter, ChainScopedFilter, ExtensionDirectorAware, AutoCloseable {

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
    /** Ends waiting calls at their deadline; its one thread starts with the first wait. */
    private final ScheduledThreadPoolExecutor timer;
    /** Threads ending async calls whose wait for a permit expired. */
    static final int EXPIRY_THREADS = 2;
    /** Ends async calls (no executor of their own) whose wait expired: their callbacks run here, not on the timer. */
    private final ThreadPoolExecutor expiries;
    /** The calls waiting for a permit, failed at once by {@link #close()}. */
    private final Set<Waiter> waiting = ConcurrentHashMap.newKeySet();

    /** The filter; its timer thread starts with the first call that waits for a permit. */
    public ActiveLimitFilter() {
        timer = new ScheduledThreadPoolExecutor(1, new ThreadFactoryBuilder().setNameFormat("weft-actives-timer").setDaemon(true).build());
        timer.setRemoveOnCancelPolicy(true);
        timer.setKeepAliveTime(10, TimeUnit.SECONDS);
        timer.allowCoreThreadTimeOut(true);
        expiries = new ThreadPoolExecutor(EXPIRY_THREADS, EXPIRY_THREADS, 10, TimeUnit.SECONDS, new LinkedBlockingQueue<>(),
                new ThreadFactoryBuilder().setNameFormat("weft-actives-callback-%d").setDaemon(true).build());
        expiries.allowCoreThreadTimeOut(true);
    }

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
        return new ChainPermits();
    }

    /** Fails the calls waiting for a permit at once and stops the timer and callback threads; idempotent. */
    @Override
    public void close() {
        timer.shutdownNow();
        expiries.shutdown(); // expiries already handed over still end their calls
        for (Waiter waiter : waiting) {
            waiter.refuse(new RpcException(RpcException.NOT_PROCESSED, "Call of method " + waiter.invocation.getMethodName()
                    + " waiting for a permit (" + ACTIVES_KEY + ") refused: its extension director closed (not sent)"));
        }
    }

    /** The permits of one chain (one referred invoker), by method. */
    private final class ChainPermits implements Filter {

        private final ConcurrentMap<String, Permits> byMethod = new ConcurrentHashMap<>();

        @Override
        public Result invoke(Invoker<?> next, Invocation invocation) throws RpcException {
            URL url = CallOptions.urlOf(next, invocation);
            String method = invocation.getMethodName();
            int limit = url.getMethodParameter(method, ACTIVES_KEY, 0);
            if (limit <= 0) {
                return next.invoke(invocation);
            }
            Permits permits = byMethod.computeIfAbsent(method, m -> new Permits());
            if (permits.enter(limit, null)) {
                return permits.invokeHolding(next, invocation);
            }
            long timeoutMillis = timeoutMillis(url, invocation);
            Deadline waitEnd = Deadline.after(timeoutMillis, TimeUnit.MILLISECONDS, ticker)
                    .minimum(invocation.getCallOptions().deadline());
            Waiter waiter = new Waiter(permits, next, invocation, waitEnd, () -> refused(method, url, limit, timeoutMillis));
            waiting.add(waiter); // before it is queued: a close from now on finds it
            if (permits.enter(limit, waiter)) { // a permit came back meanwhile
                waiting.remove(waiter);
                return permits.invokeHolding(next, invocation);
            }
            waiter.watchCancellation();
            return waiter.outcome;
        }
    }

    /**
     * One call waiting for a permit. It leaves the queue once: admitted ({@link Permits#release})
     * or refused (deadline, caller's cancel, close), whichever takes it out of the queue first.
     */
    private final class Waiter {
        final Permits permits;
        final Invoker<?> next;
        final Invocation invocation;
        final Deadline waitEnd;
        final Supplier<RpcException> refusal;
        final Executor executor;
        /** Where the call ends when its wait expires: its own executor, else the callback threads. */
        final Executor expiryExecutor;
        final AsyncResult outcome = AsyncResult.pending();
        /** Guarded by the permits' lock: whether in their queue, and the deadline's timer task while it is. */
        boolean queued;
        Future<?> expiry;
        private volatile Cancellation.Registration cancelled = Cancellation.Registration.NONE;

        Waiter(Permits permits, Invoker<?> next, Invocation invocation, Deadline waitEnd, Supplier<RpcException> refusal) {
            this.permits = permits;
            this.next = next;
            this.invocation = invocation;
            this.waitEnd = waitEnd;
            this.refusal = refusal;
            Executor own = invocation.getCallOptions().executor();
            this.executor = own != null ? own : permits.admitted;
            this.expiryExecutor = own != null ? own : expiries;
        }

        /** Queued: watches the caller's cancellation (the deadline's timer was set when it was queued). */
        void watchCancellation() {
            cancelled = invocation.getCallOptions().cancellation().onCancel(() -> refuse(new RpcException(RpcException.CANCELLED,
                    "Call of method " + invocation.getMethodName() + " cancelled by its caller while waiting for a permit ("
                            + ACTIVES_KEY + "; not sent)")));
            if (!permits.isQueued(this)) {
                ended(); // admitted or refused before it watched: nothing is left to watch
            }
        }

        /** The deadline passed while queued. */
        void expire() {
            if (permits.leave(this)) {
                ended();
                try {
                    expiryExecutor.execute(() -> outcome.fail(refusal.get()));
                } catch (RejectedExecutionException closed) { // the director closed meanwhile
                    outcome.fail(refusal.get());
                }
            }
        }

        /** Ends the call with {@code failure} when it is still queued. */
        void refuse(RpcException failure) {
            if (permits.leave(this)) {
                ended();
                outcome.fail(failure);
            }
        }

        /** Admitted with a permit: starts the call, unless its wait ended meanwhile. */
        void start() {
            ended();
            if (waitEnd.isExpired()) {
                permits.release();
                outcome.fail(refusal.get());
                return;
            }
            Result result;
            try {
                result = permits.invokeHolding(next, withDeadline(invocation, waitEnd));
            } catch (RuntimeException | Error e) {
                outcome.fail(e); // the permit is back: invokeHolding released it
                Results.rethrowIfFatal(e);
                return;
            }
            outcome.follow(result);
        }

        private void ended() {
            waiting.remove(this);
            cancelled.remove();
        }
    }

    /**
     * The in-flight count of one method of one invoker and the calls waiting for a permit, first
     * come first served. The limit compared is the newest one a call read.
     */
    private final class Permits {

        /** Where admitted calls without an executor of their own start, one after another. */
        final Executor admitted = MoreExecutors.newSequentialExecutor(MoreExecutors.directExecutor());
        private final ArrayDeque<Waiter> queue = new ArrayDeque<>(); // guarded by this
        private int inFlight; // guarded by this
        private int limit; // guarded by this

        /**
         * Takes a permit under {@code newLimit} when no call waits before it; else queues
         * {@code waiter} (when not null) with a timer for its deadline. Waiting calls the new
         * limit admits start first.
         */
        boolean enter(int newLimit, Waiter waiter) {
            List<Waiter> admittedNow;
            boolean entered;
            synchronized (this) {
                limit = newLimit;
                admittedNow = admitWaiting();
                entered = queue.isEmpty() && inFlight < limit;
                if (entered) {
                    inFlight++;
                } else if (waiter != null) {
                    queue(waiter);
                }
            }
            startAll(admittedNow);
            return entered;
        }

        /** Holding this lock. */
        private void queue(Waiter waiter) {
            long waitNanos = waiter.waitEnd.timeRemaining(TimeUnit.NANOSECONDS);
            try {
                waiter.expiry = timer.schedule(waiter::expire, Math.max(0, waitNanos), TimeUnit.NANOSECONDS);
            } catch (RejectedExecutionException closed) {
                waiter.outcome.fail(new RpcException(RpcException.NOT_PROCESSED, "Call of method "
                        + waiter.invocation.getMethodName() + " would wait for a permit (" + ACTIVES_KEY
                        + ") but its extension director is closed (not sent)"));
                return;
            }
            queue.add(waiter);
            waiter.queued = true;
        }

        /** Calls {@code next} holding a permit, returned once at the real end of the call. */
        Result invokeHolding(Invoker<?> next, Invocation invocation) {
            Result result;
            try {
                result = next.invoke(invocation);
            } catch (RuntimeException | Error e) {
                release();
                throw e;
            }
            return result.whenComplete((value, failure) -> release());
        }

        /** Returns a permit; the first waiting calls it admits start. */
        void release() {
            List<Waiter> admittedNow;
            synchronized (this) {
                inFlight--;
                admittedNow = admitWaiting();
            }
            startAll(admittedNow);
        }

        /** Takes {@code waiter} out of the queue; true when it was queued (and now is not). */
        boolean leave(Waiter waiter) {
            synchronized (this) {
                if (!waiter.queued) {
                    return false;
                }
                waiter.queued = false;
                queue.remove(waiter); // deadlines end roughly in queue order: found near the head
            }
            waiter.expiry.cancel(false);
            return true;
        }

        synchronized boolean isQueued(Waiter waiter) {
            return waiter.queued;
        }

        /** Holding this lock: admits the first waiting calls while permits are free. */
        private List<Waiter> admitWaiting() {
            if (queue.isEmpty() || inFlight >= limit) {
                return List.of();
            }
            List<Waiter> admittedNow = new ArrayList<>(Math.min(limit - inFlight, queue.size()));
            while (inFlight < limit && !queue.isEmpty()) {
                Waiter waiter = queue.poll();
                waiter.queued = false;
                waiter.expiry.cancel(false);
                inFlight++;
                admittedNow.add(waiter);
            }
            return admittedNow;
        }

        private void startAll(List<Waiter> admittedNow) {
            if (admittedNow.isEmpty()) {
                return;
            }
            for (Waiter waiter : admittedNow) {
                waiter.executor.execute(waiter::start);
            }
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
}
