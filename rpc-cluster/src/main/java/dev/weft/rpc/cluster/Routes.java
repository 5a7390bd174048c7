package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;

import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The routed lists of one {@link DirectoryState}: its {@link Router} applied to the state's
 * candidates, once per method and route key, on first use, and kept for the life of the state (a
 * new state, availability included, routes again). Without a router every route is the candidates
 * themselves. Thread-safe.
 *
 * @param <T> the service interface
 */
public final class Routes<T> {

    static final Router<Object> NO_ROUTER = new Router<>() {
        @Override
        public String routeKey(Invocation invocation) {
            return "";
        }

        @Override
        public Route<Object> route(List<Invoker<Object>> candidates, String method, String routeKey) {
            return new Route<>(candidates, null);
        }

        @Override
        public String toString() {
            return "no router";
        }
    };

    /** Route keys, then methods ({@code ""} for the service level) beyond which routes are not kept. */
    private static final int MAX_KEPT = 1024;

    private final Router<T> router;
    private final List<Invoker<T>> candidates;
    private final Router.Route<T> all;
    private final Map<String, Map<String, Router.Route<T>>> byKey = new ConcurrentHashMap<>();

    Routes(Router<T> router, List<Invoker<T>> candidates) {
        this.router = Objects.requireNonNull(router, "router");
        this.candidates = candidates;
        this.all = router == NO_ROUTER ? new Router.Route<>(candidates, null) : null;
    }

    /** The router these routes come from. */
    public Router<T> router() {
        return router;
    }

    /** The route key of {@code invocation} ({@link Router#routeKey}). */
    public String routeKey(Invocation invocation) {
        return all != null ? "" : router.routeKey(invocation);
    }

    /** The route of {@code invocation}: its method and route key. */
    public Router.Route<T> of(Invocation invocation) {
        return all != null ? all : of(invocation.getMethodName(), router.routeKey(invocation));
    }

    /** The route of the calls of {@code method} (null: the service level) with {@code routeKey}. */
    public Router.Route<T> of(String method, String routeKey) {
        if (all != null) {
            return all;
        }
        String name = method == null ? "" : method;
        Map<String, Router.Route<T>> methods = byKey.get(routeKey);
        if (methods == null) {
            methods = byKey.size() < MAX_KEPT ? byKey.computeIfAbsent(routeKey, k -> new ConcurrentHashMap<>()) : Map.of();
        }
        Router.Route<T> known = methods.get(name);
        if (known != null) {
            return known;
        }
        Router.Route<T> routed = router.route(candidates, method, routeKey);
        if (methods.size() < MAX_KEPT && methods instanceof ConcurrentHashMap<String, Router.Route<T>> kept) {
            Router.Route<T> raced = kept.putIfAbsent(name, routed);
            return raced != null ? raced : routed;
        }
        return routed;
    }
}
