package dev.weft.rpc.loadbalance;

import com.google.common.collect.MapMaker;
import dev.weft.rpc.common.Invoker;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Objects;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * Per-invoker call statistics: calls in flight, a sliding window of successful latencies and
 * failures, and a peak-EWMA latency estimate. The cluster records every provider call with
 * {@link #startCall()} before and {@link #endCall(long, boolean)} after (callers that measure the
 * elapsed time themselves use {@link #begin()} and {@link #end(long, boolean)}); the balancers
 * read them.
 *
 * <p><b>Identity and lifetime.</b> {@link #of(Invoker)} returns the same instance for the same
 * invoker object (identity, not {@code equals}). The registry holds invokers through weak
 * references and a statistics object never refers to its invoker, so the statistics of an
 * invoker that is no longer reachable (it left every directory) are reclaimed by the garbage
 * collector; there is no global state that grows with invoker generations.
 *
 * <p><b>Window.</b> Latencies and failures are counted in buckets of {@value #BUCKET_SECONDS}
 * seconds; reads see the current and the previous bucket, i.e. the last 10 to 20 seconds. A bucket
 * rolls over on the first call that ends after its period; an invoker with no call ending for a
 * whole bucket period therefore reads as having no samples again, which lets balancers probe it.
 *
 * <p><b>Peak EWMA.</b> The estimate jumps to a sample larger than itself (peak) and otherwise moves
 * towards the sample with weight {@code 1 - exp(-dt / decay)}, {@code dt} being the time since the
 * previous update; reads decay it towards zero with the same rule, so an idle invoker is probed
 * again. A failure raises the estimate to at least twice its value (and at least
 * {@value #MIN_FAILURE_PENALTY_MILLIS} ms). The decay is 10 s unless a balancer configures another
 * ({@code p2c.decay}); the last configured value wins.
 *
 * <p><b>Recorded only when read.</b> {@link #startCall()}/{@link #endCall(long, boolean)} record
 * only what something reads, because counting on counters nobody reads costs every call (and
 * makes the cores fight over one cache line under load):
 * <ul>
 *   <li>Calls in flight are counted once something reads them: the balancers that read them
 *       ({@code leastactive}, {@code shortestresponse}, {@code p2c}, {@code consistenthash} with a
 *       load factor) call {@link #trackInFlight()} when they first see the invoker, and the public
 *       read {@link #inFlight()} does it too.</li>
 *   <li>Latency (the window and the EWMA) is recorded once something reads it: the
 *       latency-reading balancers ({@code shortestresponse}, {@code p2c}) call
 *       {@link #trackLatency()} (which implies in-flight counting) when they first see the
 *       invoker, and the public latency reads ({@link #windowSuccesses()},
 *       {@link #windowFailures()}, {@link #windowAverageLatencyNanos()}, {@link #peakEwmaNanos()})
 *       do it too.</li>
 * </ul>
 * History therefore starts with the first call started after that moment: calls already in flight
 * then are not counted (they end without counting out), and before it the invoker reads as idle
 * with no samples, which those balancers treat as an invoker to probe. Tracking, once on, stays on
 * for the life of the statistics. {@link #begin()}/{@link #end(long, boolean)} always record.
 *
 * <p><b>Cost.</b> Untracked: {@code startCall} is one volatile read and {@code endCall} one
 * comparison, no atomic operation and no clock read. In-flight tracked: one atomic add each. Latency tracked: one
 * clock read at the start and one at the end (used both for the elapsed time and for the window
 * bucket), plus two atomic adds on the bucket, one compare-and-set for the EWMA and a few volatile
 * writes. No allocation except one small bucket object per {@value #BUCKET_SECONDS} s.
 * {@link #begin()}/{@link #end(long, boolean)} (the caller measures the elapsed time) always count
 * and record latency, and read the clock once in {@code end}.
 *
 * <p>Thread-safe. Reads are individually atomic but not a consistent snapshot of each other; the
 * window may lose a sample that races with a bucket roll-over. {@code begin}/{@code end} and
 * {@code startCall}/{@code endCall} must be paired by the caller; {@link #inFlight()} never
 * reports less than zero.
 */
public final class InvokerStats {

    static final long BUCKET_SECONDS = 10;
    static final long BUCKET_NANOS = TimeUnit.SECONDS.toNanos(BUCKET_SECONDS);
    static final long DEFAULT_EWMA_DECAY_NANOS = TimeUnit.SECONDS.toNanos(10);
    static final long MIN_FAILURE_PENALTY_MILLIS = 1;
    private static final double MIN_FAILURE_PENALTY_NANOS = TimeUnit.MILLISECONDS.toNanos(MIN_FAILURE_PENALTY_MILLIS);
    /** Cap of {@link #expectedLatencyNanos(long)} (about 18 minutes), so scores never overflow. */
    static final long MAX_EXPECTED_NANOS = 1L << 40;
    /** {@link #expectedLatencyNanos(long)} of an invoker without samples in the window. */
    static final long NO_SAMPLES = -1;
    private static final double NO_HISTORY = -1.0;
    /**
     * What {@link #startCall()} returns when calls in flight are counted but latency is not
     * tracked; {@link #endCall(long, boolean)} then only counts the call out.
     */
    public static final long UNTIMED = Long.MIN_VALUE;
    /**
     * What {@link #startCall()} returns when nothing is tracked; {@link #endCall(long, boolean)}
     * then does nothing. (Clock readings are never this value or {@link #UNTIMED}: a reading that
     * would be is moved up past both.)
     */
    public static final long UNCOUNTED = Long.MIN_VALUE + 1;

    private static final int TRACK_NOTHING = 0;
    private static final int TRACK_IN_FLIGHT = 1;
    private static final int TRACK_LATENCY = 2;

    private static final ConcurrentMap<Invoker<?>, InvokerStats> REGISTRY =
            new MapMaker().weakKeys().concurrencyLevel(16).makeMap();

    private static final VarHandle IN_FLIGHT;
    private static final VarHandle TRACKING;
    private static final VarHandle EWMA_BITS;
    private static final VarHandle EWMA_STAMP;
    private static final VarHandle EXPECTED_NANOS;
    private static final VarHandle EXPECTED_EPOCH;
    private static final VarHandle BUCKET_0;
    private static final VarHandle BUCKET_1;

    static {
        try {
            MethodHandles.Lookup lookup = MethodHandles.lookup();
            IN_FLIGHT = lookup.findVarHandle(InvokerStats.class, "inFlight", int.class);
            TRACKING = lookup.findVarHandle(InvokerStats.class, "tracking", int.class);
            EWMA_BITS = lookup.findVarHandle(InvokerStats.class, "ewmaBits", long.class);
            EWMA_STAMP = lookup.findVarHandle(InvokerStats.class, "ewmaStamp", long.class);
            EXPECTED_NANOS = lookup.findVarHandle(InvokerStats.class, "expectedNanos", long.class);
            EXPECTED_EPOCH = lookup.findVarHandle(InvokerStats.class, "expectedEpoch", long.class);
            BUCKET_0 = lookup.findVarHandle(InvokerStats.class, "bucket0", Bucket.class);
            BUCKET_1 = lookup.findVarHandle(InvokerStats.class, "bucket1", Bucket.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** Set, never cleared, when the first statistics object in this class loader starts tracking anything. */
    private static volatile boolean anyTracking;

    private final LongSupplier ticker;

    private volatile int inFlight;
    private volatile Bucket bucket0 = new Bucket(Long.MIN_VALUE);
    private volatile Bucket bucket1 = new Bucket(Long.MIN_VALUE);
    /** Cached {@link #expectedLatencyNanos} and the bucket epoch it was computed in. */
    private volatile long expectedNanos = NO_SAMPLES;
    private volatile long expectedEpoch = Long.MIN_VALUE;
    private volatile long ewmaBits = Double.doubleToRawLongBits(NO_HISTORY);
    private volatile long ewmaStamp;
    private volatile long ewmaDecayNanos = DEFAULT_EWMA_DECAY_NANOS;
    /** What {@link #startCall()} records: {@code TRACK_*}; only ever raised. */
    private volatile int tracking = TRACK_NOTHING;

    private InvokerStats(LongSupplier ticker) {
        this.ticker = ticker;
    }

    /**
     * The statistics of {@code invoker}: never {@code null}, the same instance for the same invoker
     * object while it is reachable.
     */
    public static InvokerStats of(Invoker<?> invoker) {
        InvokerStats stats = REGISTRY.get(Objects.requireNonNull(invoker, "invoker"));
        return stats != null ? stats : register(invoker, System::nanoTime);
    }

    /**
     * As {@link #of(Invoker)}, but a statistics object created by this call reads time from
     * {@code ticker} (nanoseconds, like {@link System#nanoTime()}). For deterministic tests.
     */
    static InvokerStats of(Invoker<?> invoker, LongSupplier ticker) {
        InvokerStats stats = REGISTRY.get(Objects.requireNonNull(invoker, "invoker"));
        return stats != null ? stats : register(invoker, Objects.requireNonNull(ticker, "ticker"));
    }

    private static InvokerStats register(Invoker<?> invoker, LongSupplier ticker) {
        InvokerStats created = new InvokerStats(ticker);
        InvokerStats raced = REGISTRY.putIfAbsent(invoker, created);
        return raced != null ? raced : created;
    }

    /** Number of invokers with statistics still registered (reclaimed entries may linger until cleanup). */
    static int registeredCount() {
        return REGISTRY.size();
    }

    /** A call starts: in-flight + 1. */
    public void begin() {
        IN_FLIGHT.getAndAdd(this, 1);
    }

    /**
     * A call ends: in-flight - 1, and its latency is recorded ({@code success}) or a failure is
     * counted. A negative {@code elapsedNanos} counts as 0.
     *
     * @param elapsedNanos the call's duration, measured by the caller with {@link System#nanoTime()}
     * @param success      whether the provider answered (a business exception is a success)
     */
    public void end(long elapsedNanos, boolean success) {
        IN_FLIGHT.getAndAdd(this, -1);
        recordEnd(ticker.getAsLong(), elapsedNanos, success);
    }

    /**
     * A call starts: in-flight + 1 when calls in flight are tracked, and the start time when
     * latency is tracked. Pass the value returned to {@link #endCall(long, boolean)} when the call
     * ends.
     *
     * @return the clock reading (ticker nanoseconds) when latency is tracked, {@link #UNTIMED} when
     *         only calls in flight are, {@link #UNCOUNTED} when nothing is
     */
    public long startCall() {
        int level = tracking;
        if (level == TRACK_NOTHING) {
            return UNCOUNTED;
        }
        IN_FLIGHT.getAndAdd(this, 1);
        if (level == TRACK_IN_FLIGHT) {
            return UNTIMED;
        }
        long now = ticker.getAsLong();
        return now > UNCOUNTED ? now : UNCOUNTED + 1;
    }

    /**
     * A call started with {@link #startCall()} ends: in-flight - 1 when it was counted; when it was
     * timed, the clock is read once and that reading gives both the elapsed time and the window
     * bucket, and the latency or failure is recorded as by {@link #end(long, boolean)}. What a call
     * records is decided when it starts, so tracking turned on meanwhile does not unbalance it.
     *
     * @param startNanos what {@link #startCall()} returned
     * @param success    whether the provider answered (a business exception is a success)
     */
    public void endCall(long startNanos, boolean success) {
        if (startNanos == UNCOUNTED) {
            return;
        }
        if (startNanos == UNTIMED) {
            IN_FLIGHT.getAndAdd(this, -1);
            return;
        }
        long now = ticker.getAsLong();
        IN_FLIGHT.getAndAdd(this, -1);
        recordEnd(now, now - startNanos, success);
    }

    /**
     * Turns in-flight counting on for calls started from now on (idempotent, never turned off).
     * Called by balancers that read calls in flight when they first see this invoker; readers of
     * {@link #inFlight()} get it implicitly.
     */
    public void trackInFlight() {
        if (tracking == TRACK_NOTHING) {
            markAnyTracking();
            TRACKING.compareAndSet(this, TRACK_NOTHING, TRACK_IN_FLIGHT);
        }
    }

    /** Whether {@link #startCall()} counts calls in flight (see {@link #trackInFlight()}). */
    public boolean isInFlightTracked() {
        return tracking >= TRACK_IN_FLIGHT;
    }

    /**
     * Turns latency tracking (and in-flight counting) on for calls started from now on
     * (idempotent, never turned off). Called by balancers that read latency, when they first see
     * this invoker; custom balancers reading {@link #peakEwmaNanos()} or the window get it
     * implicitly.
     */
    public void trackLatency() {
        if (tracking != TRACK_LATENCY) {
            markAnyTracking();
            tracking = TRACK_LATENCY;
        }
    }

    private static void markAnyTracking() {
        if (!anyTracking) {
            anyTracking = true;
        }
    }

    /**
     * Whether any statistics object (of this class loader) has ever been asked to track
     * something. While this is {@code false}, {@link #startCall()} answers {@link #UNCOUNTED} for
     * every invoker, so a caller may skip looking the statistics up at all: the cluster does, so
     * that with balancers that read no statistics a call costs one volatile read for them. Once
     * {@code true}, it stays {@code true}.
     */
    public static boolean anyTracking() {
        return anyTracking;
    }

    /** Whether {@link #startCall()} times calls (see {@link #trackLatency()}). */
    public boolean isLatencyTracked() {
        return tracking == TRACK_LATENCY;
    }

    /** Records one ended call at clock reading {@code now}. */
    private void recordEnd(long now, long elapsedNanos, boolean success) {
        long elapsed = Math.max(0, elapsedNanos);
        long epoch = Math.floorDiv(now, BUCKET_NANOS);
        Bucket current = bucket(epoch);
        if (success) {
            current.addSuccess(elapsed);
        } else {
            current.addFailure();
        }
        if (current != Bucket.DISCARD) {
            refreshExpected(epoch, current);
        }
        updateEwma(now, elapsed, success);
    }

    /**
     * Calls started and not yet ended (never negative). Turns {@linkplain #trackInFlight()
     * in-flight counting} on, so a first read answers 0 for calls started before it.
     */
    public int inFlight() {
        trackInFlight();
        return inFlightCount();
    }

    /** {@link #inFlight()} without turning counting on: for balancers that turned it on already. */
    int inFlightCount() {
        return Math.max(0, inFlight);
    }

    /**
     * Successful calls in the window (the current and the previous bucket). Like every latency
     * read, turns {@linkplain #trackLatency() latency tracking} on.
     */
    public long windowSuccesses() {
        trackLatency();
        long epoch = Math.floorDiv(ticker.getAsLong(), BUCKET_NANOS);
        return successesOf(bucketIfCurrent(epoch)) + successesOf(bucketIfCurrent(epoch - 1));
    }

    /** Failed calls in the window (the current and the previous bucket); turns latency tracking on. */
    public long windowFailures() {
        trackLatency();
        long epoch = Math.floorDiv(ticker.getAsLong(), BUCKET_NANOS);
        return failuresOf(bucketIfCurrent(epoch)) + failuresOf(bucketIfCurrent(epoch - 1));
    }

    /** Average latency of the successful calls in the window, or -1 when there were none; turns latency tracking on. */
    public long windowAverageLatencyNanos() {
        trackLatency();
        long epoch = Math.floorDiv(ticker.getAsLong(), BUCKET_NANOS);
        Bucket a = bucketIfCurrent(epoch);
        Bucket b = bucketIfCurrent(epoch - 1);
        long count = successesOf(a) + successesOf(b);
        return count == 0 ? -1 : (nanosOf(a) + nanosOf(b)) / count;
    }

    /** The peak-EWMA latency estimate decayed to now, or -1 when no call has ended yet; turns latency tracking on. */
    public long peakEwmaNanos() {
        trackLatency();
        double estimate = peakEwmaAt(ticker.getAsLong());
        return estimate < 0 ? -1 : (long) estimate;
    }

    // ------------------------------------------------------------------ balancer reads

    /**
     * The expected time to a successful answer: average successful latency in the window divided
     * by the window's success rate, capped at {@link #MAX_EXPECTED_NANOS}; {@link #NO_SAMPLES} when
     * no call ended in the window. Two volatile reads; {@code nowEpoch} is
     * {@code floorDiv(nanoTime, BUCKET_NANOS)}.
     */
    long expectedLatencyNanos(long nowEpoch) {
        long value = expectedNanos;
        return expectedEpoch >= nowEpoch - 1 ? value : NO_SAMPLES;
    }

    /** The window period ({@code floorDiv(nanoTime, BUCKET_NANOS)}) of the last recorded call end. */
    long sampleEpoch() {
        return expectedEpoch;
    }

    /** When the EWMA was last updated (ticker nanos); meaningless without history. */
    long ewmaStamp() {
        return ewmaStamp;
    }

    /** The peak-EWMA estimate decayed to {@code nowNanos}, or a negative value without history. */
    double peakEwmaAt(long nowNanos) {
        double estimate = Double.longBitsToDouble(ewmaBits);
        if (estimate <= 0) {
            return estimate;
        }
        long idle = nowNanos - ewmaStamp;
        return idle <= 0 ? estimate : estimate * keep(idle, ewmaDecayNanos);
    }

    /** Sets the EWMA decay (time constant) used from now on; called by the p2c balancer. */
    void ewmaDecayNanos(long decayNanos) {
        if (ewmaDecayNanos != decayNanos) {
            ewmaDecayNanos = decayNanos;
        }
    }

    long ticker() {
        return ticker.getAsLong();
    }

    // ------------------------------------------------------------------ recording

    private Bucket bucket(long epoch) {
        boolean even = (epoch & 1) == 0;
        Bucket bucket = even ? bucket0 : bucket1;
        while (bucket.epoch != epoch) {
            if (bucket.epoch > epoch) {
                // A late sample from an older period: it belongs to no current bucket.
                return Bucket.DISCARD;
            }
            Bucket fresh = new Bucket(epoch);
            VarHandle slot = even ? BUCKET_0 : BUCKET_1;
            if (slot.compareAndSet(this, bucket, fresh)) {
                return fresh;
            }
            bucket = even ? bucket0 : bucket1;
        }
        return bucket;
    }

    private Bucket bucketIfCurrent(long epoch) {
        Bucket bucket = (epoch & 1) == 0 ? bucket0 : bucket1;
        return bucket.epoch == epoch ? bucket : null;
    }

    private void refreshExpected(long epoch, Bucket current) {
        Bucket previous = bucketIfCurrent(epoch - 1);
        long successes = current.successes + successesOf(previous);
        long failures = current.failures + failuresOf(previous);
        long expected;
        if (successes == 0) {
            expected = failures == 0 ? NO_SAMPLES : MAX_EXPECTED_NANOS;
        } else {
            double average = (double) (current.nanos + nanosOf(previous)) / successes;
            double successRate = (double) successes / (successes + failures);
            expected = (long) Math.min(MAX_EXPECTED_NANOS, Math.max(1.0, average / successRate));
        }
        // release stores: ordered for readers, without a full fence per field on every call end
        EXPECTED_NANOS.setRelease(this, expected);
        EXPECTED_EPOCH.setRelease(this, epoch);
    }

    private void updateEwma(long now, long elapsedNanos, boolean success) {
        // at least 1 ns, so an estimate is never 0 (0 would make in-flight counts irrelevant)
        long elapsed = Math.max(1, elapsedNanos);
        while (true) {
            long bits = ewmaBits;
            double old = Double.longBitsToDouble(bits);
            long stamp = ewmaStamp;
            double next;
            if (old < 0) {
                next = success ? elapsed : Math.max(elapsed, MIN_FAILURE_PENALTY_NANOS);
            } else {
                long dt = Math.max(0, now - stamp);
                double keep = keep(dt, ewmaDecayNanos);
                double decayed = old * keep;
                double sample = success ? elapsed : Math.max(elapsed, Math.max(2 * old, MIN_FAILURE_PENALTY_NANOS));
                next = sample > decayed ? sample : decayed + sample * (1 - keep);
            }
            if (EWMA_BITS.compareAndSet(this, bits, Double.doubleToRawLongBits(next))) {
                EWMA_STAMP.setRelease(this, now);
                return;
            }
        }
    }

    /**
     * {@code exp(-dt / decay)}: the weight the old estimate keeps after {@code dt}. Calls usually
     * end far less than a time constant apart, where a Taylor polynomial (error below 2e-13)
     * replaces {@link Math#exp}.
     */
    static double keep(long dt, long decay) {
        double x = (double) dt / decay;
        return x < 1e-4 ? 1 - x + x * x / 2 : Math.exp(-x);
    }

    private static long successesOf(Bucket bucket) {
        return bucket == null ? 0 : bucket.successes;
    }

    private static long failuresOf(Bucket bucket) {
        return bucket == null ? 0 : bucket.failures;
    }

    private static long nanosOf(Bucket bucket) {
        return bucket == null ? 0 : bucket.nanos;
    }

    @Override
    public String toString() {
        double ewma = peakEwmaAt(ticker.getAsLong());
        return "InvokerStats{inFlight=" + inFlightCount() + ", inFlightTracked=" + isInFlightTracked()
                + ", latencyTracked=" + isLatencyTracked()
                + ", peakEwmaNanos=" + (ewma < 0 ? -1 : (long) ewma) + "}";
    }

    /** Counters of one window period; replaced, never reset, when the period changes. */
    private static final class Bucket {

        static final Bucket DISCARD = new Bucket(Long.MAX_VALUE);

        private static final VarHandle SUCCESSES;
        private static final VarHandle NANOS;
        private static final VarHandle FAILURES;

        static {
            try {
                MethodHandles.Lookup lookup = MethodHandles.lookup();
                SUCCESSES = lookup.findVarHandle(Bucket.class, "successes", long.class);
                NANOS = lookup.findVarHandle(Bucket.class, "nanos", long.class);
                FAILURES = lookup.findVarHandle(Bucket.class, "failures", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        final long epoch;
        volatile long successes;
        volatile long nanos;
        volatile long failures;

        Bucket(long epoch) {
            this.epoch = epoch;
        }

        void addSuccess(long elapsedNanos) {
            if (this != DISCARD) {
                SUCCESSES.getAndAdd(this, 1L);
                NANOS.getAndAdd(this, elapsedNanos);
            }
        }

        void addFailure() {
            if (this != DISCARD) {
                FAILURES.getAndAdd(this, 1L);
            }
        }
    }
}
