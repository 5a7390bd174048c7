package dev.weft.rpc.loadbalance;

import com.google.common.base.Ticker;
import com.google.common.math.LongMath;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The statistics of one provider invoker within one {@link CallStats}: calls in flight, a window of
 * recent latencies and failures, and a peak-EWMA latency.
 *
 * <p><b>Recording.</b> The cluster calls {@link #startCall()} before every provider call and
 * {@link #endCall(long, boolean)} after it. Calls in flight are always counted, from the very first
 * call, whatever the balancer: a balancer chosen later (by a new consumer URL) sees every call
 * still running. Latency is timed only once a balancer that reads it asked for it with
 * {@link #timeLatency()} (built-in: {@code shortestresponse} and {@code p2c}, as soon as they are
 * given a list, even of one invoker), because timing costs two clock reads per call; it then stays on.
 *
 * <p><b>Reading.</b> What a balancer reads per pick is kept current by the writer: the in-flight
 * count, the window's counts, the expected latency and the peak EWMA are each a field of this
 * object, updated when a call starts or ends, so a picker holding the statistics of its invokers
 * reads each with one field access and never recomputes them.
 *
 * <p><b>Window.</b> Outcomes are counted in buckets of 10 seconds; the window is the bucket of the
 * last call that ended and the one before it (the last 10 to 20 s). Its counts and expected latency
 * are computed when a call ends, and read as empty once a whole bucket passes without a call
 * ending, which lets balancers probe the invoker again.
 *
 * <p><b>Peak EWMA.</b> The latency estimate jumps to a successful call's latency larger than
 * itself and otherwise moves towards it with weight {@code 1 - exp(-dt / 10 s)}, {@code dt} being
 * the time since the previous sample. A failure does not enter it (a timeout's elapsed time says
 * nothing about the provider's latency once it answers again); it adds a <em>failure penalty</em>
 * instead: at least 1 ms, at least the latency estimate (so a failure at least doubles the cost), at
 * least twice the penalty left from earlier failures, and at most
 * {@value #MAX_FAILURE_PENALTY_MILLIS} ms; the penalty decays with its own time constant of
 * {@value #FAILURE_PENALTY_DECAY_MILLIS} ms. So a provider that failed for a while (paused, restarted)
 * costs at most a second more than its latency, and a few seconds after its last failure it is
 * compared on its latency again, whatever how many calls failed. Readers decay the latency
 * estimate towards zero over idle time with a time constant of their choosing
 * ({@link #peakEwmaNanos(long, long)}), so an idle invoker is probed again.
 *
 * <p>Thread-safe: outcomes are recorded under this object's lock, reads take none. Reads are
 * individually atomic, not a consistent snapshot of each other. {@code startCall}/{@code endCall}
 * must be paired; {@link #inFlight()} never reports less than 0.
 */
public final class InvokerStats {

    /** What {@link #startCall()} returns when latency is not timed. */
    public static final long UNTIMED = Long.MIN_VALUE;
    /** What the latency reads return when there is no sample. */
    public static final long NO_SAMPLES = -1;
    /** Cap of {@link #expectedLatencyNanos(long)} (about 18 minutes), so scores never overflow. */
    public static final long MAX_EXPECTED_NANOS = 1L << 40;
    /** The EWMA time constant applied when samples arrive. */
    public static final long EWMA_DECAY_NANOS = TimeUnit.SECONDS.toNanos(10);

    /** The largest failure penalty, however many calls failed. */
    public static final long MAX_FAILURE_PENALTY_MILLIS = 1_000;
    /** The time constant the failure penalty decays with. */
    public static final long FAILURE_PENALTY_DECAY_MILLIS = 1_000;

    static final long BUCKET_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final double MIN_FAILURE_PENALTY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);
    private static final double MAX_FAILURE_PENALTY_NANOS = TimeUnit.MILLISECONDS.toNanos(MAX_FAILURE_PENALTY_MILLIS);
    private static final long FAILURE_PENALTY_DECAY_NANOS = TimeUnit.MILLISECONDS.toNanos(FAILURE_PENALTY_DECAY_MILLIS);

    private final Ticker ticker;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean timed;
    /** The window as of the last sample, read as empty from {@link #windowEndNanos} on. */
    private volatile long windowSuccesses;
    private volatile long windowFailures;
    private volatile long expectedNanos = NO_SAMPLES;
    private volatile long windowEndNanos = Long.MIN_VALUE;
    /** The peak EWMA at {@link #lastSampleNanos}; negative without history. */
    private volatile double ewmaNanos = -1;
    private volatile long lastSampleNanos = Long.MIN_VALUE;
    /** The failure penalty at {@link #lastFailureNanos}; 0 without failures. */
    private volatile double penaltyNanos;
    private volatile long lastFailureNanos = Long.MIN_VALUE;
    /** Per bucket parity: its epoch, successes, their total nanoseconds and failures; guarded by {@code this}. */
    private final long[] epochs = {Long.MIN_VALUE, Long.MIN_VALUE};
    private final long[] successes = new long[2];
    private final long[] nanos = new long[2];
    private final long[] failures = new long[2];

    InvokerStats(Ticker ticker) {
        this.ticker = ticker;
    }

    /** From now on, time every call of this invoker (idempotent; never turned off). */
    public void timeLatency() {
        timed = true;
    }

    /** Whether calls are timed (see {@link #timeLatency()}). */
    public boolean isLatencyTimed() {
        return timed;
    }

    /**
     * A call starts: in-flight + 1.
     *
     * @return the clock reading to pass to {@link #endCall}, or {@link #UNTIMED} when calls are not timed
     */
    public long startCall() {
        inFlight.incrementAndGet();
        if (!timed) {
            return UNTIMED;
        }
        long now = ticker.read();
        return now == UNTIMED ? now + 1 : now;
    }

    /**
     * The call started with {@link #startCall()} ends: in-flight - 1, and when it was timed its
     * latency ({@code success}) or failure is recorded.
     *
     * @param started what {@link #startCall()} returned
     * @param success whether the provider answered (a business exception is an answer)
     */
    public void endCall(long started, boolean success) {
        inFlight.decrementAndGet();
        if (started != UNTIMED) {
            long now = ticker.read();
            record(now, Math.max(0, now - started), success);
        }
    }

    /** Calls started and not yet ended. */
    public int inFlight() {
        return Math.max(0, inFlight.get());
    }

    /** When the last timed call ended (ticker nanoseconds), {@link Long#MIN_VALUE} before any. */
    public long lastSampleNanos() {
        return lastSampleNanos;
    }

    /** Successful calls in the window, as of the last sample; 0 once {@code nowNanos} is a whole bucket past it. */
    public long recentSuccesses(long nowNanos) {
        return nowNanos < windowEndNanos ? windowSuccesses : 0;
    }

    /** Failed calls in the window, as of the last sample; 0 once {@code nowNanos} is a whole bucket past it. */
    public long recentFailures(long nowNanos) {
        return nowNanos < windowEndNanos ? windowFailures : 0;
    }

    /**
     * The expected time to a successful answer: average successful latency in the window divided by
     * the success rate, capped at {@link #MAX_EXPECTED_NANOS}, as computed when the last call ended;
     * {@link #NO_SAMPLES} when no call ended in the window, or when {@code nowNanos} is a whole bucket
     * past the last call's.
     */
    public long expectedLatencyNanos(long nowNanos) {
        return nowNanos < windowEndNanos ? expectedNanos : NO_SAMPLES;
    }

    /**
     * The peak-EWMA estimate decayed over the idle time up to {@code nowNanos} with time constant
     * {@code decayNanos}; negative without history.
     */
    public double peakEwmaNanos(long nowNanos, long decayNanos) {
        double estimate = ewmaNanos;
        long idle = nowNanos - lastSampleNanos;
        double latency = estimate <= 0 || idle <= 0 ? estimate : estimate * keep(idle, decayNanos);
        double penalty = failurePenaltyNanos(nowNanos);
        return penalty <= 0 ? latency : Math.max(0, latency) + penalty;
    }

    /** The failure penalty decayed to {@code nowNanos}; 0 without failures. Included in {@link #peakEwmaNanos}. */
    public double failurePenaltyNanos(long nowNanos) {
        double penalty = penaltyNanos;
        long since = nowNanos - lastFailureNanos;
        return penalty <= 0 || since <= 0 ? penalty : penalty * keep(since, FAILURE_PENALTY_DECAY_NANOS);
    }

    private synchronized void record(long ended, long elapsed, boolean success) {
        long now = Math.max(ended, lastSampleNanos); // a racing call that read the clock earlier never moves time back
        long epoch = Math.floorDiv(now, BUCKET_NANOS);
        int slot = (int) (epoch & 1);
        if (epochs[slot] != epoch) {
            epochs[slot] = epoch;
            successes[slot] = 0;
            nanos[slot] = 0;
            failures[slot] = 0;
        }
        if (success) {
            successes[slot]++;
            nanos[slot] += elapsed;
        } else {
            failures[slot]++;
        }
        int other = 1 - slot;
        boolean withPrevious = epochs[other] == epoch - 1;
        long windowSuccesses = successes[slot] + (withPrevious ? successes[other] : 0);
        long windowFailures = failures[slot] + (withPrevious ? failures[other] : 0);
        long windowNanos = nanos[slot] + (withPrevious ? nanos[other] : 0);
        if (windowSuccesses == 0) {
            expectedNanos = MAX_EXPECTED_NANOS;
        } else {
            double average = (double) windowNanos / windowSuccesses;
            double successRate = (double) windowSuccesses / (windowSuccesses + windowFailures);
            expectedNanos = (long) Math.min(MAX_EXPECTED_NANOS, Math.max(1.0, average / successRate));
        }
        this.windowSuccesses = windowSuccesses;
        this.windowFailures = windowFailures;
        windowEndNanos = LongMath.saturatedMultiply(LongMath.saturatedAdd(epoch, 2), BUCKET_NANOS);
        if (success) {
            ewmaNanos = nextEwma(now, Math.max(1, elapsed));
        } else {
            double latency = ewmaNanos <= 0 ? 0 : ewmaNanos * keep(Math.max(0, now - lastSampleNanos), EWMA_DECAY_NANOS);
            double left = failurePenaltyNanos(now);
            penaltyNanos = Math.min(MAX_FAILURE_PENALTY_NANOS,
                    Math.max(MIN_FAILURE_PENALTY_NANOS, Math.max(latency, 2 * left)));
            lastFailureNanos = now;
        }
        lastSampleNanos = now;
    }

    private double nextEwma(long now, long elapsed) {
        double old = ewmaNanos;
        if (old < 0) {
            return elapsed;
        }
        double keep = keep(Math.max(0, now - lastSampleNanos), EWMA_DECAY_NANOS);
        double decayed = old * keep;
        return elapsed > decayed ? elapsed : decayed + elapsed * (1 - keep);
    }

    /** {@code exp(-dt / decay)}: the share of the old estimate kept after {@code dt}. */
    static double keep(long dt, long decay) {
        return Math.exp(-(double) dt / decay);
    }

    @Override
    public String toString() {
        return "InvokerStats{inFlight=" + inFlight() + ", latencyTimed=" + timed + ", peakEwmaNanos=" + ewmaNanos
                + ", failurePenaltyNanos=" + penaltyNanos + "}";
    }
}
