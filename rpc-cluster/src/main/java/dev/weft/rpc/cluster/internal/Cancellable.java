package dev.weft.rpc.cluster.internal;

/** A handle on something scheduled that can be called off. */
@FunctionalInterface
public interface Cancellable {

    /** Calls the scheduled work off if it has not started; idempotent. */
    void cancel();
}
