package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcResult;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Greeter;

import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A provider of {@link Greeter} that counts calls and calls in flight, can hold every call until
 * {@link #release()} and fails on demand: {@code farewell} throws an {@link RpcException},
 * {@code read} answers an {@link IOException}.
 */
final class HeldInvoker implements Invoker<Greeter> {

    private final URL url;
    private final AtomicInteger calls = new AtomicInteger();
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicInteger maxInFlight = new AtomicInteger();
    private final Semaphore entered = new Semaphore(0);
    private volatile CountDownLatch gate;
    private volatile long workMillis;

    HeldInvoker(String url) {
        this.url = URL.valueOf(url);
    }

    /** Calls from now on wait in the provider until {@link #release()}. */
    HeldInvoker hold() {
        gate = new CountDownLatch(1);
        return this;
    }

    /** Lets held calls finish; later calls no longer wait. */
    void release() {
        CountDownLatch held = gate;
        gate = null;
        if (held != null) {
            held.countDown();
        }
    }

    /** Each call sleeps this long in the provider. */
    HeldInvoker working(long millis) {
        workMillis = millis;
        return this;
    }

    /** Waits until {@code count} more calls have entered the provider. */
    boolean awaitEntered(int count) throws InterruptedException {
        return entered.tryAcquire(count, 10, TimeUnit.SECONDS);
    }

    int calls() {
        return calls.get();
    }

    int inFlight() {
        return inFlight.get();
    }

    int maxInFlight() {
        return maxInFlight.get();
    }

    @Override
    public Result invoke(Invocation invocation) throws RpcException {
        calls.incrementAndGet();
        int now = inFlight.incrementAndGet();
        maxInFlight.accumulateAndGet(now, Math::max);
        entered.release();
        try {
            CountDownLatch held = gate;
            if (held != null && !held.await(20, TimeUnit.SECONDS)) {
                throw new AssertionError("held call never released");
            }
            if (workMillis > 0) {
                Thread.sleep(workMillis);
            }
            switch (invocation.getMethodName()) {
                case "farewell":
                    throw new RpcException(RpcException.NETWORK_EXCEPTION, "connection reset");
                case "read":
                    return RpcResult.ofException(new IOException("disk"));
                default:
                    return RpcResult.of("hello " + invocation.getArguments()[0]);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        } finally {
            inFlight.decrementAndGet();
        }
    }

    @Override
    public Class<Greeter> getInterface() {
        return Greeter.class;
    }

    @Override
    public URL getUrl() {
        return url;
    }

    @Override
    public boolean isAvailable() {
        return true;
    }

    @Override
    public void destroy() {
    }
}
