package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.List;

/**
 * A directory whose members and consumer URL change at run time, e.g. fed by a registry.
 *
 * <p>Starts empty. {@link #setInvokers} and {@link #setUrl} are safe while calls are in flight:
 * a call sees either the old or the new snapshot, never a mix. It does not own the invokers:
 * removing one from the list (or destroying the directory) does not destroy it; whoever created
 * it does that.
 *
 * @param <T> the service interface
 */
public class DynamicDirectory<T> extends AbstractDirectory<T> {

    public DynamicDirectory(Class<T> type, URL consumerUrl) {
        super(type, consumerUrl);
    }

    /**
     * Replaces the members with a copy of {@code invokers}; a list with the same invokers in the
     * same order changes nothing. Ignored after {@link #destroy()}.
     *
     * @throws NullPointerException     when {@code invokers} or an element is null
     * @throws IllegalArgumentException when an invoker serves another interface
     */
    public void setInvokers(List<Invoker<T>> invokers) {
        replaceInvokers(invokers);
    }

    /** Replaces the consumer URL (the keys cluster strategies read from the next call on). */
    public void setUrl(URL consumerUrl) {
        replaceUrl(consumerUrl);
    }
}
