package dev.weft.rpc.protocol.weft;

import com.google.common.base.Ticker;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Whether the request body in progress on one connection arrives at {@code min-upload-rate} or
 * faster, measured over a sliding window: in the last {@link #WINDOW} the body must have gained at
 * least the rate times the window's length. So what a peer sent earlier buys it nothing later: a
 * body sent in a burst and then trickled, or stalled, falls behind within {@link #WINDOW} plus one
 * {@link #CHECK_PERIOD} of its last burst, however large that burst was. The first
 * {@link #GRACE} of a body is not counted against it (the window's start never reaches before
 * it), so a body starting slowly (TCP's slow start, a peer encoding as it sends) is not refused.
 *
 * <p>Each {@link #fastEnough} call takes a sample; the decoder calls it every
 * {@link #CHECK_PERIOD} while a body is in progress, whether bytes arrive or not. The window is
 * measured from the newest sample at least {@link #WINDOW} old (or the body's start when it is
 * younger), so it spans {@code WINDOW} to {@code WINDOW + CHECK_PERIOD} once the body is that old.
 *
 * <p>Not thread-safe: one instance per connection, used on its event loop.
 */
final class UploadRate {

    /** The window over which a body's rate is measured. */
    static final Duration WINDOW = Duration.ofSeconds(5);
    /** How often a body in progress is checked. */
    static final Duration CHECK_PERIOD = Duration.ofSeconds(1);
    /** The start of a body that no window counts. */
    static final Duration GRACE = Duration.ofSeconds(1);

    private static final long WINDOW_NANOS = WINDOW.toNanos();
    private static final long GRACE_NANOS = GRACE.toNanos();

    private final long bytesPerSecond;
    private final Ticker ticker;
    /** Body bytes received at past checks, oldest first; the first is the newest at least a window old. */
    private final Deque<Sample> samples = new ArrayDeque<>();
    private long startNanos;
    private Sample lastWindowStart;
    private long lastNanos;

    /** @param bytesPerSecond the slowest rate accepted; positive */
    UploadRate(long bytesPerSecond, Ticker ticker) {
        checkArgument(bytesPerSecond > 0, "bytesPerSecond: %s (expected: > 0)", bytesPerSecond);
        this.bytesPerSecond = bytesPerSecond;
        this.ticker = ticker;
    }

    /** A body starts now (its header arrived); forgets the previous one. */
    void start() {
        startNanos = ticker.read();
        samples.clear();
        samples.add(new Sample(startNanos, 0));
    }

    /**
     * Whether the body, of which {@code received} bytes have arrived since {@link #start}, arrives
     * fast enough now: the bytes gained over the window are at least the rate times the window's
     * length, not counting the grace.
     */
    boolean fastEnough(long received) {
        long now = ticker.read();
        dropSamplesBefore(now - WINDOW_NANOS);
        Sample from = samples.getFirst();
        samples.addLast(new Sample(now, received));
        lastWindowStart = from;
        lastNanos = now;
        long counted = now - Math.max(from.nanos, startNanos + GRACE_NANOS);
        return counted <= 0 || received - from.received >= (double) bytesPerSecond * counted / 1e9;
    }

    /** What the last check measured, for an error message: "N bytes in the last M ms". */
    String lastWindow() {
        return (samples.getLast().received - lastWindowStart.received) + " bytes in the last "
                + Duration.ofNanos(lastNanos - lastWindowStart.nanos).toMillis() + " ms";
    }

    /** Keeps, as the first sample, the newest one at or before {@code windowStart}, and those after it. */
    private void dropSamplesBefore(long windowStart) {
        Iterator<Sample> oldestFirst = samples.iterator();
        oldestFirst.next();
        int older = 0;
        while (oldestFirst.hasNext() && oldestFirst.next().nanos - windowStart <= 0) {
            older++;
        }
        for (int i = 0; i < older; i++) {
            samples.removeFirst();
        }
    }

    private record Sample(long nanos, long received) {
    }
}
