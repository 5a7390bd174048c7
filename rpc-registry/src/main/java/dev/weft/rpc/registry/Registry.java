package dev.weft.rpc.registry;

import dev.weft.rpc.common.Node;
import dev.weft.rpc.common.URL;

import java.util.List;

/**
 * Where providers and consumers announce themselves and where consumers learn of providers and
 * of override rules. Thread-safe. Closing it unregisters what it registered and stops every
 * subscription.
 */
public interface Registry extends Node, AutoCloseable {

    /** Announces {@code url} (a provider or a consumer) until {@link #unregister} or close. */
    void register(URL url);

    void unregister(URL url);

    /**
     * Delivers, now and on every change, the full current list of each category that
     * {@code url} names (parameter {@code category}, default {@code providers}).
     */
    void subscribe(URL url, NotifyListener listener);

    void unsubscribe(URL url, NotifyListener listener);

    /** The current URLs of the categories {@code url} names, read once. */
    List<URL> lookup(URL url);

    @Override
    void close();
}
