package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.Objects;

/**
 * A directory whose members and consumer URL change at run time, e.g. fed by a registry.
 *
 * <p>Starts empty. Every change publishes one immutable {@link DirectoryState}; calls in flight
 * keep the state they started with, and a call sees the old or the new state, never a mix. Before
 * publication every {@link DirectoryListener} (the cluster invokers joined to this directory, the
 * mock wrapper) checks the new state: a veto makes the change throw with the listener's message
 * and the last good state keeps serving. It does not own the invokers: removing one from the list
 * (or destroying the directory) does not destroy it; whoever created it does that.
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
     * @throws IllegalArgumentException when an invoker serves another interface, or a listener vetoed the new state
     */
    public void setInvokers(List<Invoker<T>> invokers) {
        publish(null, Objects.requireNonNull(invokers, "invokers"));
    }

    /**
     * Replaces the consumer URL (the keys cluster strategies read).
     *
     * @throws IllegalArgumentException when a listener vetoed the new state (e.g. {@code retries=abc})
     */
    public void setUrl(URL consumerUrl) {
        publish(Objects.requireNonNull(consumerUrl, "consumerUrl"), null);
    }

    /**
     * Replaces the consumer URL and the members at once: one state, checked and published
     * atomically, so no call sees the new URL with the old members or the reverse.
     *
     * @throws NullPointerException     when an argument or an element is null
     * @throws IllegalArgumentException when an invoker serves another interface, or a listener vetoed the new state
     */
    public void setState(URL consumerUrl, List<Invoker<T>> invokers) {
        publish(Objects.requireNonNull(consumerUrl, "consumerUrl"), Objects.requireNonNull(invokers, "invokers"));
    }
}
