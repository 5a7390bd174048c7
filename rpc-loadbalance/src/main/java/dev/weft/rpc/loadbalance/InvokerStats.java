package dev.weft.rpc.loadbalance;

import com.google.common.base.Ticker;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The statistics of one provider invoker within one {@link CallStats}: calls in flight, a window of
 * recent latencies and failures, and a peak-EWMA latency.
 *
 * <p><b>Recording.</b> The cluster calls {@link #startCall()} before every provider call and
 * {@link #endCall(long, boolean)} after it. Calls in flight are always counted, from the very first
 * call, whatever the balancer: a balancer chosen later (by a new consumer URL) sees every call
 * still running. Latency is timed only once a balancer that reads it asked for it with
 * {@link #timeLatency()} (built-in: {@code shortestresponse} and {@code p2c}, when they build a
 * picker), because timing costs two clock reads per call; it then stays on.
 *
 * <p><b>Window.</b> Outcomes are counted in buckets of 10 seconds; the window is the current and
 * the previous bucket (the last 10 to 20 s). An invoker without a call ending for a whole bucket
 * reads as having no samples again, which lets balancers probe it.
 *
 * <p><b>Peak EWMA.</b> The estimate jumps to a sample larger than itself and otherwise moves
 * towards it with weight {@code 1 - exp(-dt / 10 s)}, {@code dt} being the time since the previous
 * sample; a failure raises it to at least twice its value (and at least 1 ms). Readers decay it
 * towards zero over idle time with a time constant of their choosing ({@link #peakEwmaNanos(long, long)}),
 * so an idle invoker is probed again.
 *
 * <p>Thread-safe. Reads are individually atomic, not a consistent snapshot of each other.
 * {@code startCall}/{@code endCall} must be paired; {@link #inFlight()} never reports less than 0.
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

    static final long BUCKET_NANOS = TimeUnit.SECONDS.toNanos(10);
    private static final double MIN_FAILURE_PENALTY_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

    private final Ticker ticker;
    private final AtomicInteger inFlight = new AtomicInteger();
    private volatile boolean timed;
    private final AtomicReference<Bucket> even = new AtomicReference<>(Bucket.NONE);
    private final AtomicReference<Bucket> odd = new AtomicReference<>(Bucket.NONE);
    /** Double bits of the EWMA; negative without history. */
    private final AtomicLong ewmaBits = new AtomicLong(Double.doubleToRawLongBits(-1.0));
    private volatile long lastSampleNanos = Long.MIN_VALUE;

    InvokerStats(Ticker ticker) {
        this.ticker = ticker;
    }

    /** From now on, time every call of this invoker (idempotent; never turned off). */
    public void timeLatency() {
        if (!timed) {
            timed = true;
        }
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

    /** Successful calls in the window ending at {@code nowNanos}. */
    public long recentSuccesses(long nowNanos) {
        long epoch = Math.floorDiv(nowNanos, BUCKET_NANOS);
        return bucket(epoch).successes.get() + bucket(epoch - 1).successes.get();
    }

    /** Failed calls in the window ending at {@code nowNanos}. */
    public long recentFailures(long nowNanos) {
        long epoch = Math.floorDiv(nowNanos, BUCKET_NANOS);
        return bucket(epoch).failures.get() + bucket(epoch - 1).failures.get();
    }

    /** Failed calls in the window ending now. */
    public long recentFailures() {
        return recentFailures(ticker.read());
    }

    /**
     * The expected time to a successful answer in the window ending at {@code nowNanos}: average
     * successful latency divided by the success rate, capped at {@link #MAX_EXPECTED_NANOS};
     * {@link #NO_SAMPLES} when no call ended in the window.
     */
    public long expectedLatencyNanos(long nowNanos) {
        long epoch = Math.floorDiv(nowNanos, BUCKET_NANOS);
        Bucket current = bucket(epoch);
        Bucket previous = bucket(epoch - 1);
        long successes = current.successes.get() + previous.successes.get();
        long failures = current.failures.get() + previous.failures.get();
        if (successes == 0) {
            return failures == 0 ? NO_SAMPLES : MAX_EXPECTED_NANOS;
        }
        double average = (double) (current.nanos.get() + previous.nanos.get()) / successes;
        double successRate = (double) successes / (successes + failures);
        return (long) Math.min(MAX_EXPECTED_NANOS, Math.max(1.0, average / successRate));
    }

    /** The peak-EWMA estimate decayed to now with the default time constant, or {@link #NO_SAMPLES}. */
    public long peakEwmaNanos() {
        double estimate = peakEwmaNanos(ticker.read(), EWMA_DECAY_NANOS);
        return estimate < 0 ? NO_SAMPLES : (long) estimate;
    }

    /**
     * The peak-EWMA estimate decayed over the idle time up to {@code nowNanos} with time constant
     * {@code decayNanos}; negative without history.
     */
    public double peakEwmaNanos(long nowNanos, long decayNanos) {
        double estimate = Double.longBitsToDouble(ewmaBits.get());
        if (estimate <= 0) {
            return estimate;
        }
        long idle = nowNanos - lastSampleNanos;
        return idle <= 0 ? estimate : estimate * keep(idle, decayNanos);
    }

    private void record(long now, long elapsed, boolean success) {
        long epoch = Math.floorDiv(now, BUCKET_NANOS);
        AtomicReference<Bucket> slot = (epoch & 1) == 0 ? even : odd;
        Bucket bucket = slot.get();
        while (bucket.epoch < epoch) {
            Bucket fresh = new Bucket(epoch);
            bucket = slot.compareAndSet(bucket, fresh) ? fresh : slot.get();
        }
        if (bucket.epoch == epoch) {
            if (success) {
                bucket.successes.incrementAndGet();
                bucket.nanos.addAndGet(elapsed);
            } else {
                bucket.failures.incrementAndGet();
            }
        }
        updateEwma(now, Math.max(1, elapsed), success);
    }

    private void updateEwma(long now, long elapsed, boolean success) {
        while (true) {
            long bits = ewmaBits.get();
            double old = Double.longBitsToDouble(bits);
            double next;
            if (old < 0) {
                next = success ? elapsed : Math.max(elapsed, MIN_FAILURE_PENALTY_NANOS);
            } else {
                double keep = keep(Math.max(0, now - lastSampleNanos), EWMA_DECAY_NANOS);
                double decayed = old * keep;
                double sample = success ? elapsed : Math.max(elapsed, Math.max(2 * old, MIN_FAILURE_PENALTY_NANOS));
                next = sample > decayed ? sample : decayed + sample * (1 - keep);
            }
            if (ewmaBits.compareAndSet(bits, Double.doubleToRawLongBits(next))) {
                lastSampleNanos = now;
                return;
            }
        }
    }

    private Bucket bucket(long epoch) {
        Bucket bucket = ((epoch & 1) == 0 ? even : odd).get();
        return bucket.epoch == epoch ? bucket : Bucket.NONE;
    }

    /** {@code exp(-dt / decay)}: the share of the old estimate kept after {@code dt}. */
    static double keep(long dt, long decay) {
        return Math.exp(-(double) dt / decay);
    }

    @Override
    public String toString() {
        return "InvokerStats{inFlight=" + inFlight() + ", latencyTimed=" + timed + ", peakEwmaNanos=" + peakEwmaNanos() + "}";
    }

    /** Counters of one window period; replaced, never reset, when the period changes. */
    private static final class Bucket {
        static final Bucket NONE = new Bucket(Long.MIN_VALUE);

        final long epoch;
        final AtomicLong successes = new AtomicLong();
        final AtomicLong nanos = new AtomicLong();
        final AtomicLong failures = new AtomicLong();

        Bucket(long epoch) {
            this.epoch = epoch;
        }
    }
}
