package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;

import java.util.List;

/** Receives registry changes. */
@FunctionalInterface
public interface NotifyListener {

    /**
     * The full current list of one subscribed category; an empty category arrives as one
     * {@code empty://} URL with {@code category=<name>}. Called from one thread per subscription,
     * never concurrently for the same subscription.
     */
    void notify(List<URL> urls);
}
