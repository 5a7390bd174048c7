package dev.weft.rpc.protocol.filter;

import com.google.common.base.Ticker;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.Gradient2Limit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;

import java.util.Objects;
import java.util.Optional;

/**
 * The adaptive concurrency limit of one method of one exported invoker ({@code executes=auto}):
 * Netflix concurrency-limits' Gradient2, which compares the recent latency of the calls with their
 * long-term latency and lowers the limit as queueing makes calls slower, raising it again while they
 * are not. Settings: initial limit {@value #INITIAL_LIMIT}, at least {@value #MIN_LIMIT}, at most
 * {@value #MAX_LIMIT}, the library's defaults otherwise (smoothing 0.2, queue allowance 4, long
 * window 600 samples, latency tolerance 1.5).
 *
 * <p>Time comes from the injected ticker. Thread-safe.
 */
final class AdaptiveLimit {

    /** The limit before any call has ended. */
    static final int INITIAL_LIMIT = 20;
    /** The limit never goes below this: a method always runs this many calls at once. */
    static final int MIN_LIMIT = 1;
    /** The limit never goes above this. */
    static final int MAX_LIMIT = 1000;

    private final SimpleLimiter<Void> limiter;

    AdaptiveLimit(Ticker ticker) {
        Objects.requireNonNull(ticker, "ticker");
        limiter = SimpleLimiter.newBuilder()
                .limit(Gradient2Limit.newBuilder().initialLimit(INITIAL_LIMIT).minLimit(MIN_LIMIT).maxConcurrency(MAX_LIMIT).build())
                .nanoClock(ticker::read)
                .build();
    }

    /** A permit for one call: its end must be reported; empty when the method is at its limit. */
    Optional<Limiter.Listener> tryAcquire() {
        return limiter.acquire(null);
    }

    /** The current limit. */
    int limit() {
        return limiter.getLimit();
    }

    /** Calls holding a permit now. */
    int inFlight() {
        return limiter.getInflight();
    }

    @Override
    public String toString() {
        return "AdaptiveLimit[limit=" + limit() + ", inFlight=" + inFlight() + "]";
    }
}
