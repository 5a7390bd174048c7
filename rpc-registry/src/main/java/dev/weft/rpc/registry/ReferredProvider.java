package dev.weft.rpc.registry;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.RpcException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * One invoker a {@link RegistryDirectory} referred through a protocol, shared by every view of
 * it, with its calls in flight counted so that it is destroyed only after the last one ends.
 * Thread-safe; {@link #retire()} and destruction happen at most once.
 */
final class ReferredProvider<T> {

    private static final Logger log = LoggerFactory.getLogger(ReferredProvider.class);

    private final Invoker<T> invoker;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final AtomicBoolean destroyed = new AtomicBoolean();
    private volatile boolean retired;

    ReferredProvider(Invoker<T> invoker) {
        this.invoker = invoker;
    }

    Invoker<T> invoker() {
        return invoker;
    }

    /**
     * Calls the invoker, counting the call in flight until its result ends (an async call's
     * pending result included), so that retiring the provider never cuts its connection under it.
     */
    Result invoke(Invocation invocation) throws RpcException {
        inFlight.incrementAndGet();
        Result result;
        try {
            result = invoker.invoke(invocation);
        } catch (RuntimeException | Error e) {
            callEnded();
            throw e;
        }
        return result.whenComplete((answer, failure) -> callEnded());
    }

    private void callEnded() {
        if (inFlight.decrementAndGet() == 0 && retired) {
            destroyOnce();
        }
    }

    /**
     * Takes the invoker out of service: destroyed now when no call is in flight, else when the
     * last one ends (calls end at their deadline). A call that picked it just before may
     * still start; the protocol invoker then fails it like any dead provider.
     */
    void retire() {
        retired = true;
        if (inFlight.get() == 0) {
            destroyOnce();
        }
    }

    boolean isDestroyed() {
        return destroyed.get();
    }

    private void destroyOnce() {
        if (destroyed.compareAndSet(false, true)) {
            try {
                invoker.destroy();
            } catch (RuntimeException e) {
                log.warn("Destroying provider invoker {} failed", invoker.getUrl(), e);
            }
        }
    }
}
