package dev.weft.rpc.protocol.filter;

import com.google.common.base.Ticker;
import com.google.common.math.IntMath;
import com.netflix.concurrency.limits.limit.VegasLimit;

import java.math.RoundingMode;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The adaptive concurrency limit of one method of one exported service ({@code executes=auto}):
 * Netflix concurrency-limits' Vegas limit, anchored on the calls' no-load latency (the lowest seen):
 * from the latency of each answered call it estimates how many calls wait in a queue
 * ({@code limit x (1 - noLoad / latency)}), raising the limit while few do and lowering it when
 * more than a few (a logarithm of the limit) do, so the admitted calls run at close to their
 * no-load latency. Settings: initial limit {@value #INITIAL_LIMIT}, at least {@value #MIN_LIMIT},
 * at most {@value #MAX_LIMIT}; the limit rises while fewer than {@value #ALPHA} and falls while more
 * than {@value #BETA} calls (times the limit's decimal logarithm) are estimated queued: the library's
 * rise threshold, and one below its fall threshold (6), which in {@code ResilienceBenchmark}'s
 * overload let the admitted calls' p99 reach 3x the unloaded one, while 4 left the cores idle when
 * admitted calls waited for a thread; the no-load latency is measured again (set to the latest latency)
 * after {@value #PROBE_MULTIPLIER} x 0.5 to 1 x the limit calls, rarely, because under an overload
 * that lasts each such probe takes a queued latency for the no-load one; the library's defaults
 * otherwise.
 *
 * <p><b>Where it admits.</b> A protocol that queues calls for business threads (the weft server)
 * admits each call as it reads it, before the queue ({@link ExecuteLimits#admitOnReceipt}): the calls
 * in flight are all those received and not yet ended, queued or running, and each latency includes
 * the time the call waited for a thread. Behind the queue the limit would see neither: no more calls
 * than the threads could ever be in flight at it, so a limit once above twice the threads would never
 * move again (Vegas leaves its limit alone while fewer than half of it are in flight), and the
 * excess would wait in the queue before being refused.
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

    /** Below this many queued calls (times the limit's logarithm) the limit rises by one. */
    static final int ALPHA = 3;
    /** Above this many queued calls (times the limit's logarithm) the limit falls by that logarithm. */
    static final int BETA = 5;

    private final Ticker ticker;
    private final VegasLimit vegas;
    private final AtomicInteger inFlight = new AtomicInteger();

    AdaptiveLimit(Ticker ticker) {
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        vegas = VegasLimit.newBuilder().initialLimit(INITIAL_LIMIT).maxConcurrency(MAX_LIMIT)
                .alphaFunction(limit -> ALPHA * log10(limit)).betaFunction(limit -> BETA * log10(limit))
                .probeMultiplier(PROBE_MULTIPLIER).build();
    }

    /** The permit of one admitted call: exactly one of {@link #answered()} and {@link #ignored()} must follow. */
    final class Permit {
        private final long admittedNanos;
        /** Calls in flight here once this one was admitted. */
        private final int inFlightAtAdmission;

        private Permit(long admittedNanos, int inFlightAtAdmission) {
            this.admittedNanos = admittedNanos;
            this.inFlightAtAdmission = inFlightAtAdmission;
        }

        /**
         * The call was answered: its latency since admission feeds the limit. A latency of zero
         * (a coarse or fake clock), which the library refuses, is not a sample; the permit is
         * released all the same.
         */
        void answered() {
            inFlight.decrementAndGet();
            long latency = ticker.read() - admittedNanos;
            if (latency > 0) {
                vegas.onSample(admittedNanos, latency, inFlightAtAdmission, false);
            }
        }

        /** The call failed: its latency says nothing about queueing; the permit is released. */
        void ignored() {
            inFlight.decrementAndGet();
        }
    }

    /** A permit for one call; empty when the method is at its limit. */
    Optional<Permit> tryAcquire() {
        long now = ticker.read();
        int limit = vegas.getLimit();
        int current;
        do {
            current = inFlight.get();
            if (current >= limit) {
                return Optional.empty();
            }
        } while (!inFlight.compareAndSet(current, current + 1));
        return Optional.of(new Permit(now, current + 1));
    }

    /** The decimal logarithm of {@code limit}, at least 1: the steps Vegas takes grow slowly with the limit. */
    private static int log10(int limit) {
        return Math.max(1, IntMath.log10(Math.max(1, limit), RoundingMode.FLOOR));
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
