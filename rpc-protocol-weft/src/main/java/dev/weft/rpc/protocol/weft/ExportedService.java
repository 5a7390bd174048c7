package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.protocol.Serialization;
import dev.weft.rpc.protocol.ServiceKey;
import dev.weft.rpc.protocol.filter.ExecuteLimits;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * One service on a {@link WeftServer}: its invoker, its pinned serialization, its methods, and
 * its calls accepted but not yet answered. Thread-safe.
 */
final class ExportedService {

    private final ServiceKey key;
    private final Invoker<?> invoker;
    private final Serialization serialization;
    private final MethodTable methods;
    private final ExecuteLimits executeLimits;
    private final AtomicInteger inFlight = new AtomicInteger();
    private final LongAdder cancelled = new LongAdder();
    private final LongAdder expired = new LongAdder();
    private volatile boolean closing;

    ExportedService(ServiceKey key, Invoker<?> invoker, Serialization serialization, ExecuteLimits executeLimits) {
        this.key = key;
        this.invoker = invoker;
        this.serialization = serialization;
        this.methods = new MethodTable(invoker.getInterface());
        this.executeLimits = executeLimits;
    }

    /** Admits a call of {@code method} just read under its {@code executes=auto} limit, if it has one ({@link ExecuteLimits#admitOnReceipt}). */
    ExecuteLimits.Admission admitOnReceipt(String method) {
        return executeLimits.admitOnReceipt(invoker.getUrl(), invoker.getInterface().getName(), method);
    }

    ServiceKey key() {
        return key;
    }

    Invoker<?> invoker() {
        return invoker;
    }

    Serialization serialization() {
        return serialization;
    }

    MethodTable methods() {
        return methods;
    }

    /** Stops new calls from running; calls already running finish. */
    void startClosing() {
        closing = true;
    }

    boolean isClosing() {
        return closing;
    }

    void callAccepted() {
        inFlight.incrementAndGet();
    }

    void callDone() {
        inFlight.decrementAndGet();
    }

    int inFlight() {
        return inFlight.get();
    }

    /** A call was skipped because its consumer cancelled it before it started. */
    void callCancelled() {
        cancelled.increment();
    }

    /** Calls skipped since export because their consumers cancelled them before they started. */
    long cancelledCalls() {
        return cancelled.sum();
    }

    /** A call was not run because its deadline had passed when it was read, dispatched or taken by a thread. */
    void callExpired() {
        expired.increment();
    }

    /** Calls not run since export because their deadline had passed first. */
    long expiredCalls() {
        return expired.sum();
    }
}
