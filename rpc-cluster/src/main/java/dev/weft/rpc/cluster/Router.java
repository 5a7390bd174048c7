package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;

import java.util.List;

/**
 * Narrows the providers of a directory state for the calls of one method and one route: a
 * directory's routing rules, compiled when they arrived. A directory publishes its router with each
 * state ({@link AbstractDirectory#publish(dev.weft.rpc.common.URL, List, Router, DirectoryListener)});
 * the state asks it once per method and route key ({@link Routes}), so the cluster's pickers are
 * built over the routed list and a call only looks its route up.
 *
 * <p>Implementations are immutable and thread-safe; two routers that route alike are equal (so
 * a directory publishes a new state only when routing changes).
 *
 * @param <T> the service interface
 */
public interface Router<T> {

    /**
     * The route key of {@code invocation}: what, besides its method, decides its providers (such as
     * its tag); {@code ""} for a call that carries nothing routing reads. Read on every call, so it
     * must be a lookup, never parsing.
     */
    String routeKey(Invocation invocation);

    /**
     * The providers among {@code candidates} (order kept) that calls of {@code method} (null: the
     * service level) with {@code routeKey} may use. Called once per state, method and route key.
     */
    Route<T> route(List<Invoker<T>> candidates, String method, String routeKey);

    /** The router that routes nothing: every call may use every candidate. */
    @SuppressWarnings("unchecked")
    static <T> Router<T> none() {
        return (Router<T>) Routes.NO_ROUTER;
    }

    /**
     * Where the calls of one method and route key may go.
     *
     * @param invokers the providers they may use, possibly none
     * @param refusal  when {@code invokers} is empty because a rule said so, the reason (it names the
     *                 rule) that such calls fail with; otherwise null
     * @param <T>      the service interface
     */
    record Route<T>(List<Invoker<T>> invokers, String refusal) {
        public Route {
            invokers = List.copyOf(invokers);
        }
    }
}
