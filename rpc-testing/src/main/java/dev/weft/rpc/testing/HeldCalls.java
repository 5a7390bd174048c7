package dev.weft.rpc.testing;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.RpcException;

import java.time.Duration;
import java.util.Objects;

import static com.google.common.base.Preconditions.checkArgument;

/**
 * Control over the calls a {@link FakeProvider} holds in flight, returned by
 * {@link FakeProvider#holdCalls()}: every call that arrives while this hold is active waits until
 * the test {@link #release(int) releases} it (or {@link #releaseAll() everything}).
 *
 * <p>A held call counts as in flight at the provider ({@link FakeProvider#inFlight()}), so a test
 * can check what a strategy does while calls are outstanding: {@code leastactive} avoids the busy
 * provider, {@code forking} returns the first answer, a destroy waits or refuses. A call is never
 * held forever: after the bound given to {@link FakeProvider#holdCalls(Duration)} (30 s by default)
 * it fails with a {@link RpcException#TIMEOUT_EXCEPTION} saying it was never released, so a
 * forgotten release fails the test instead of hanging the build.
 *
 * <p>Thread-safe. {@link #close()} releases everything, so a {@code try}-with-resources block
 * never leaves a thread waiting.
 */
public final class HeldCalls implements AutoCloseable {

    private final FakeProvider<?> provider;
    private final Duration bound;
    private int waiting;
    private int heldSoFar;
    private int permits;
    private boolean releasedAll;

    HeldCalls(FakeProvider<?> provider, Duration bound) {
        this.provider = Objects.requireNonNull(provider, "provider");
        this.bound = Objects.requireNonNull(bound, "bound");
        checkArgument(!bound.isNegative() && !bound.isZero(), "bound: %s (expected: > 0)", bound);
    }

    /** Blocks the calling thread until released; called by the provider. */
    synchronized void hold(Invocation invocation) throws RpcException {
        if (releasedAll) {
            return;
        }
        waiting++;
        heldSoFar++;
        notifyAll();
        long deadline = System.nanoTime() + bound.toNanos();
        try {
            while (!releasedAll && permits == 0) {
                long remaining = deadline - System.nanoTime();
                if (remaining <= 0) {
                    throw new RpcException(RpcException.TIMEOUT_EXCEPTION, "call of method " + invocation.getMethodName()
                            + " held by fake provider " + provider.name() + " was never released within " + bound
                            + " (expected: HeldCalls.release(n), releaseAll() or close())");
                }
                waitNanos(remaining);
            }
            if (!releasedAll) {
                permits--;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new RpcException(RpcException.NETWORK_EXCEPTION, "call of method " + invocation.getMethodName()
                    + " held by fake provider " + provider.name() + " was interrupted", e);
        } finally {
            waiting--;
            notifyAll();
        }
    }

    private void waitNanos(long nanos) throws InterruptedException {
        long millis = Math.max(1, Duration.ofNanos(nanos).toMillis());
        wait(millis);
    }

    /** Calls waiting now. */
    public synchronized int held() {
        return waiting;
    }

    /** Calls held since this hold began, released ones included. */
    public synchronized int heldSoFar() {
        return heldSoFar;
    }

    /**
     * Waits until at least {@code count} calls are held at once.
     *
     * @return whether they were, before {@code timeout} passed
     */
    public synchronized boolean awaitHeld(int count, Duration timeout) throws InterruptedException {
        checkArgument(count >= 1, "count: %s (expected: >= 1)", count);
        Objects.requireNonNull(timeout, "timeout");
        long deadline = System.nanoTime() + timeout.toNanos();
        while (waiting < count) {
            long remaining = deadline - System.nanoTime();
            if (remaining <= 0) {
                return false;
            }
            waitNanos(remaining);
        }
        return true;
    }

    /**
     * Waits up to 10 s until at least {@code count} calls are held at once.
     *
     * @throws IllegalStateException naming the provider and the counts when they are not
     */
    public void awaitHeld(int count) throws InterruptedException {
        if (!awaitHeld(count, Duration.ofSeconds(10))) {
            throw new IllegalStateException("held calls at fake provider " + provider.name() + ": " + held()
                    + " (expected: >= " + count + " within 10 s)");
        }
    }

    /**
     * Lets {@code count} calls go on: held ones first, in no particular order, and when fewer are
     * held, the next ones to arrive pass without waiting.
     */
    public synchronized void release(int count) {
        checkArgument(count >= 1, "count: %s (expected: >= 1)", count);
        permits += count;
        notifyAll();
    }

    /** Lets every held call go on; calls arriving afterwards are not held. */
    public void releaseAll() {
        synchronized (this) {
            releasedAll = true;
            notifyAll();
        }
        provider.endHold(this);
    }

    /** Whether {@link #releaseAll()} was called. */
    public synchronized boolean isReleased() {
        return releasedAll;
    }

    /** {@link #releaseAll()}. */
    @Override
    public void close() {
        releaseAll();
    }

    @Override
    public synchronized String toString() {
        return "HeldCalls[" + provider.name() + ", held=" + waiting + ", heldSoFar=" + heldSoFar
                + (releasedAll ? ", released" : ", permits=" + permits) + "]";
    }
}
