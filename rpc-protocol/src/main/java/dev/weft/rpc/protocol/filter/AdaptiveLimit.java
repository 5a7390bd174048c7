package dev.weft.rpc.protocol.filter;

import com.google.common.base.Ticker;
import com.netflix.concurrency.limits.limit.VegasLimit;
import dev.weft.rpc.common.CallOptions;

import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

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
 * <p><b>What a latency is.</b> A call's latency runs from when the provider's protocol received it
 * ({@link CallOptions#receivedNanos()}), not from when it reached this limit: on a protocol with a
 * business executor the limit sits behind the executor's queue, and the time a call waited there
 * is queueing the limit must see. A received time after the permit's (another clock, or none) is
 * replaced by the permit's.
 *
 * <p><b>When the threads bind first.</b> Vegas leaves its limit alone while fewer than half of it
 * are in flight (the application uses less than it may). Behind an executor, though, no more calls
 * than the business threads can ever be in flight here, so a limit that once rose above twice that
 * would never move again while the calls wait for a thread. A call that waited for a thread longer
 * than it then took, admitted while fewer than half the limit were in flight, says the limit is
 * above what the provider can hold: it reaches Vegas as a drop, which lowers the limit (by its
 * logarithm) until it binds, and Vegas' own queueing estimate takes over. An idle provider's calls
 * do not wait for a thread and leave the limit alone.
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
    private final VegasLimit vegas;
    private final AtomicInteger inFlight = new AtomicInteger();

    AdaptiveLimit(Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        vegas = VegasLimit.newBuilder().initialLimit(INITIAL_LIMIT).maxConcurrency(MAX_LIMIT)
                .probeMultiplier(PROBE_MULTIPLIER).build();
    }

    /** The permit of one admitted call: exactly one of {@link #answered()} and {@link #ignored()} must follow. */
    final class Permit {
        private final long receivedNanos;
        private final long admittedNanos;
        /** Calls in flight here once this one was admitted. */
        private final int inFlightAtAdmission;
        private final int limitAtAdmission;

        private Permit(long receivedNanos, long admittedNanos, int inFlightAtAdmission, int limitAtAdmission) {
            this.receivedNanos = receivedNanos;
            this.admittedNanos = admittedNanos;
            this.inFlightAtAdmission = inFlightAtAdmission;
            this.limitAtAdmission = limitAtAdmission;
        }

        /**
         * The call was answered: its latency since it was received feeds the limit. A latency of zero
         * (a coarse or fake clock), which the library refuses, is not a sample; the permit is
         * released all the same.
         */
        void answered() {
            inFlight.decrementAndGet();
            long now = ticker.read();
            long latency = now - receivedNanos;
            if (latency <= 0) {
                return;
            }
            boolean threadsBind = 2 * inFlightAtAdmission < limitAtAdmission && admittedNanos - receivedNanos > now - admittedNanos;
            vegas.onSample(receivedNanos, latency, inFlightAtAdmission, threadsBind);
        }

        /** The call failed: its latency says nothing about queueing; the permit is released. */
        void ignored() {
            inFlight.decrementAndGet();
        }
    }

    /**
     * A permit for one call received at ticker reading {@code receivedNanos}
     * ({@link CallOptions#NOT_RECEIVED}: now); empty when the method is at its limit.
     */
    Optional<Permit> tryAcquire(long receivedNanos) {
        long now = ticker.read();
        int limit = vegas.getLimit();
        int current;
        do {
            current = inFlight.get();
            if (current >= limit) {
                return Optional.empty();
            }
        } while (!inFlight.compareAndSet(current, current + 1));
        long received = receivedNanos == CallOptions.NOT_RECEIVED || receivedNanos - now > 0 ? now : receivedNanos;
        return Optional.of(new Permit(received, now, current + 1, limit));
    }

    /** The current limit. */
    int limit() {
        return vegas.getLimit();
    }

    /** Calls holding a permit now. */
    int inFlight() {
        return inFlight.get();
    }

    @Override
    public String toString() {
        return "AdaptiveLimit[limit=" + limit() + ", inFlight=" + inFlight() + "]";
    }
}
