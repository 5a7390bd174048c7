package dev.weft.rpc.common;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The cancellation signal of one call, shared by all its attempts (found in its
 * {@link CallOptions#cancellation()}): the caller cancels it (the proxy does when the caller's
 * future is cancelled); attempts in flight register what to do then (a protocol tells the provider
 * and fails the attempt), and strategies never start another attempt of a cancelled call.
 * Listeners run once, on the thread that cancels (or at once, on the registering thread, when the
 * call is cancelled already).
 *
 * <p>Thread-safe. {@link #NONE} can never be cancelled and keeps no listeners.
 */
public final class Cancellation {

    /** The signal of calls that cannot be cancelled (sync calls without an interrupt). */
    public static final Cancellation NONE = new Cancellation(false);

    private final boolean cancellable;
    private List<Runnable> listeners; // guarded by this; created on the first listener, null again once cancelled
    private volatile boolean cancelled;

    private Cancellation(boolean cancellable) {
        this.cancellable = cancellable;
    }

    /** A new signal, not cancelled. */
    public static Cancellation create() {
        return new Cancellation(true);
    }

    /** Whether {@link #cancel()} was called. */
    public boolean isCancelled() {
        return cancelled;
    }

    /** Cancels the call: runs every registered listener once; true the first time. */
    public boolean cancel() {
        if (!cancellable) {
            return false;
        }
        List<Runnable> toRun;
        synchronized (this) {
            if (cancelled) {
                return false;
            }
            cancelled = true;
            toRun = listeners;
            listeners = null;
        }
        if (toRun == null) {
            return true;
        }
        RuntimeException first = null;
        for (Runnable listener : toRun) {
            try {
                listener.run();
            } catch (RuntimeException e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
        return true;
    }

    /**
     * Runs {@code listener} when the call is cancelled (now, when it is already); remove it with the
     * returned registration once the attempt it belongs to has ended.
     */
    public Registration onCancel(Runnable listener) {
        Objects.requireNonNull(listener, "listener");
        if (!cancellable) {
            return Registration.NONE;
        }
        synchronized (this) {
            if (!cancelled) {
                if (listeners == null) {
                    listeners = new ArrayList<>(2);
                }
                listeners.add(listener);
                return () -> {
                    synchronized (this) {
                        if (listeners != null) {
                            listeners.remove(listener);
                        }
                    }
                };
            }
        }
        listener.run();
        return Registration.NONE;
    }

    @Override
    public String toString() {
        return cancellable ? "Cancellation[" + (cancelled ? "cancelled" : "active") + "]" : "Cancellation.NONE";
    }

    /** Removes a listener. */
    @FunctionalInterface
    public interface Registration {
        /** Does nothing. */
        Registration NONE = () -> { };

        /** Removes the listener; idempotent. */
        void remove();
    }
}
