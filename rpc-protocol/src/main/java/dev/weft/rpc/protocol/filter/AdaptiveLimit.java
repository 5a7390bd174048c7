package dev.weft.rpc.protocol.filter;

import com.google.common.base.Ticker;
import com.netflix.concurrency.limits.Limiter;
import com.netflix.concurrency.limits.limit.VegasLimit;
import com.netflix.concurrency.limits.limiter.SimpleLimiter;

import java.util.Objects;
import java.util.Optional;

/**
 * The adaptive concurrency limit of one method of one exported invoker ({@code executes=auto}):
 * Netflix concurrency-limits' Vegas limit, anchored on the calls' no-load latency (the lowest seen):
 * from the latency of each answered call it estimates how many calls wait in a queue
 * ({@code limit x (1 - noLoad / latency)}), raising the limit while few do and lowering it when
 * more than a few (a logarithm of the limit) do, so the admitted calls run at close to their
 * no-load latency. Settings: initial limit {@value #INITIAL_LIMIT}, at least {@value #MIN_LIMIT},
 * at most {@value #MAX_LIMIT}; the no-load latency is measured again (set to the latest latency)
 * after {@value #PROBE_MULTIPLIER} x 0.5 to 1 x the limit calls, rarely, because under an overload
 * that lasts each such probe takes a queued latency for the no-load one; the library's defaults
 * otherwise.
 *
 * <p>Why not Gradient2 (which DESIGN names): it compares the recent latency with a long-term
 * average of the latency itself, which under an overload that lasts catches up with the queueing,
 * so its limit drifts up (to 400 in {@code ResilienceBenchmark}'s overload, where 8 would do) and
 * the admitted calls wait as long as without a limit. The price of the anchor: when the service
 * itself becomes slower (not queueing), the limit stays low until the next probe.
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
    /** The no-load latency is measured again after this many times (0.5 to 1) the limit calls. */
    static final int PROBE_MULTIPLIER = 1000;

    private final Ticker ticker;
    private final SimpleLimiter<Void> limiter;

    AdaptiveLimit(Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        limiter = SimpleLimiter.newBuilder()
                .limit(VegasLimit.newBuilder().initialLimit(INITIAL_LIMIT).maxConcurrency(MAX_LIMIT)
                        .probeMultiplier(PROBE_MULTIPLIER).build())
                .nanoClock(ticker::read)
                .build();
    }

    /** The permit of one admitted call: exactly one of {@link #answered()} and {@link #ignored()} must follow. */
    final class Permit {
        private final Limiter.Listener listener;
        private final long startedNanos;

        private Permit(Limiter.Listener listener, long startedNanos) {
            this.listener = listener;
            this.startedNanos = startedNanos;
        }

        /**
         * The call was answered: its latency feeds the limit. A latency of zero (a coarse or fake
         * clock), which the library refuses, is not a sample; the permit is released all the same.
         */
        void answered() {
            if (ticker.read() == startedNanos) {
                listener.onIgnore();
            } else {
                listener.onSuccess();
            }
        }

        /** The call failed: its latency says nothing about queueing; the permit is released. */
        void ignored() {
            listener.onIgnore();
        }
    }

    /** A permit for one call; empty when the method is at its limit. */
    Optional<Permit> tryAcquire() {
        long now = ticker.read();
        return limiter.acquire(null).map(listener -> new Permit(listener, now));
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
