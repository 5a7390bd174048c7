package dev.weft.rpc.protocol.weft;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.util.ResourceLeakDetector;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * Netty's leak detector for this module's tests (installed with
 * {@code -Dio.netty.customResourceLeakDetector}): every leak Netty reports is also recorded here so
 * that {@link #assertNoLeaks()} can fail the test that caused it.
 */
public final class LeakCounter<T> extends ResourceLeakDetector<T> {

    private static final List<String> LEAKS = new CopyOnWriteArrayList<>();

    public LeakCounter(Class<?> resourceType, int samplingInterval) {
        super(resourceType, samplingInterval);
    }

    /** The constructor Netty looks for first; the limit of tracked instances is not used. */
    @SuppressWarnings("deprecation")
    public LeakCounter(Class<?> resourceType, int samplingInterval, long maxActive) {
        super(resourceType, samplingInterval, maxActive);
    }

    @Override
    protected boolean needReport() {
        return true;
    }

    @Override
    protected void reportTracedLeak(String resourceType, String records) {
        LEAKS.add(resourceType + ": " + records);
        super.reportTracedLeak(resourceType, records);
    }

    @Override
    protected void reportUntracedLeak(String resourceType) {
        LEAKS.add(resourceType);
        super.reportUntracedLeak(resourceType);
    }

    /** Collects garbage, makes Netty look for leaked buffers, and fails when any was reported. */
    static void assertNoLeaks() {
        for (int i = 0; i < 3; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            for (int j = 0; j < 50; j++) {
                ByteBuf probe = ByteBufAllocator.DEFAULT.buffer(16);
                probe.release();
            }
        }
        if (!LEAKS.isEmpty()) {
            throw new AssertionError("Netty buffer leaks: " + LEAKS);
        }
    }
}
