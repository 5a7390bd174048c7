package dev.weft.rpc.protocol.weft;

import java.util.concurrent.TimeUnit;

/**
 * Maps readings of a consumer's monotonic clock, as its requests and PINGs carry them, onto the
 * provider's clock, for one connection. Each frame is a sample: its arrival on the provider's clock
 * minus the consumer's reading when it was sent, that is the offset between the two clocks plus
 * the frame's delay. The offset used is the smallest sample of the current and the previous window
 * of {@value #WINDOW_SECONDS} s (as NTP filters its samples): a frame that waited, in the network or
 * in the kernel while the provider was stopped, gives a larger sample and never moves the estimate,
 * so the mapped time is the earliest the frame could have arrived. Hence a deadline mapped with it
 * is never earlier than the consumer's own (a live call is never dropped for it; up to the two
 * clocks' drift over two windows, a few ms at most), and it passes for
 * a frame read long after it was sent, whatever else arrived with it. Windows let the estimate
 * follow the drift of the two clocks (a previous window is kept so that a rotation never leaves
 * only the samples of frames that waited). Not thread-safe: confined to the connection's event loop.
 */
final class PeerClock {

    static final int WINDOW_SECONDS = 30;
    private static final long WINDOW_NANOS = TimeUnit.SECONDS.toNanos(WINDOW_SECONDS);

    private long currentMin = Long.MAX_VALUE;
    private long previousMin = Long.MAX_VALUE;
    private long windowStart;
    private boolean started;

    /**
     * Takes the sample of a frame the consumer sent at {@code peerNanos} (its clock) that arrived
     * at {@code arrivalNanos} (this provider's), and returns the provider's time of the consumer's
     * {@code peerNanos} under the estimate, at most {@code arrivalNanos}.
     */
    long toLocal(long peerNanos, long arrivalNanos) {
        if (!started || arrivalNanos - windowStart >= WINDOW_NANOS) {
            previousMin = started ? currentMin : Long.MAX_VALUE;
            currentMin = Long.MAX_VALUE;
            windowStart = arrivalNanos;
            started = true;
        }
        long sample = arrivalNanos - peerNanos;
        if (sample < currentMin) {
            currentMin = sample;
        }
        return peerNanos + Math.min(currentMin, previousMin);
    }
}
