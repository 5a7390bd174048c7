package dev.weft.rpc.protocol;

import dev.weft.rpc.common.AsyncResult;
import dev.weft.rpc.common.Invocation;
import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.Results;
import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.RpcInvocation;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.spi.Activate;
import dev.weft.rpc.spi.ExtensionDirector;
import dev.weft.rpc.spi.ExtensionLoader;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * Builds the consumer or provider filter chain around an invoker, as {@code ProtocolFilterWrapper}
 * does for every referred and exported invoker; public for users whose providers are in-memory
 * invokers and who want the same filters without a protocol.
 *
 * <p>The chain holds the {@link Filter}s that
 * {@code getActivateExtensions(url, "filter", side)} selects for the invoker's URL: every
 * {@code @Activate} filter of that side, ordered by {@link Activate#order()} then name (the first
 * one is outermost: it sees the call first and the result last), edited by the URL key
 * {@value #FILTER_KEY}: {@code a} adds filter {@code a}, {@code -b} removes {@code b},
 * {@code -default} removes every automatic one, {@code default} marks where the automatic ones go
 * among the named ones (at the front when absent). A named filter whose {@code @Activate} lists
 * groups without this side is left out, so a provider's {@code filter} key that reaches a consumer
 * through the registry does not run provider filters there. Every filter of the side implementing
 * {@link UrlCheckingFilter} checks its keys while the chain is built, whether the URL selects it or
 * not.
 *
 * <p>The returned invoker answers {@code getUrl()}, {@code getInterface()}, {@code isAvailable()}
 * and {@code destroy()} from the invoker inside. Thread-safe: a chain is immutable (its
 * {@link ChainScopedFilter}s keep thread-safe state of their own).
 */
public final class FilterChain {

    /** URL key: edits of a filter chain, {@code a,-b,-default}; absent means the automatic filters. */
    public static final String FILTER_KEY = "filter";
    /** The {@code @Activate} group of consumer filters. */
    public static final String CONSUMER = "consumer";
    /** The {@code @Activate} group of provider filters. */
    public static final String PROVIDER = "provider";
    /** The {@code @Activate} group of call filters: around the whole call, the mock and the cluster inside. */
    public static final String CALL = "call";

    private FilterChain() {
    }

    /** {@code invoker} inside the consumer chain its URL selects. */
    public static <T> Invoker<T> consumer(Invoker<T> invoker, ExtensionDirector director) {
        Objects.requireNonNull(invoker, "invoker");
        return wrap(invoker, filters(invoker.getUrl(), CONSUMER, director));
    }

    /** {@code invoker} inside the provider chain its URL selects. */
    public static <T> Invoker<T> provider(Invoker<T> invoker, ExtensionDirector director) {
        Objects.requireNonNull(invoker, "invoker");
        return wrap(invoker, filters(invoker.getUrl(), PROVIDER, director));
    }

    /** {@code invoker} (a cluster invoker, with the mock) inside the call chain its URL selects. */
    public static <T> Invoker<T> call(Invoker<T> invoker, ExtensionDirector director) {
        Objects.requireNonNull(invoker, "invoker");
        return wrap(invoker, filters(invoker.getUrl(), CALL, director));
    }

    /**
     * The filters of side {@code group} ({@value #CONSUMER}, {@value #PROVIDER} or {@value #CALL}) that {@code url}
     * selects, outermost first, after every filter of that side that reads URL keys has checked
     * them on {@code url} ({@link #checkKeys}), selected or not: {@code accesslog=off} leaves the
     * {@code accesslog} filter out, yet is refused like {@code accesslog=yes}.
     *
     * @throws IllegalArgumentException when {@code group} is neither side or a filter rejects a key's value
     * @throws IllegalStateException    when the {@code filter} key names an unknown filter (the message lists the known ones)
     */
    public static List<Filter> filters(URL url, String group, ExtensionDirector director) {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(director, "director");
        checkGroup(group);
        List<Filter> selected = new ArrayList<>();
        for (Filter filter : director.getExtensionLoader(Filter.class).getActivateExtensions(url, FILTER_KEY, group)) {
            if (!belongsToOtherSide(filter.getClass(), group)) {
                selected.add(filter);
            }
        }
        checkKeys(url, group, director);
        return List.copyOf(selected);
    }

    /**
     * Checks, on {@code url}, the keys of every filter of side {@code group} that reads URL keys
     * ({@link UrlCheckingFilter}), whether or not {@code url} turns the filter on: for values that
     * reach a chain after it was built, such as an override rule that a registry directory applies
     * to its view of a referred provider (which reaches the chain as {@link dev.weft.rpc.common.CallOptions#url()}). Only those filters are
     * created: one that reads no keys is neither built nor asked, so a filter that cannot be built
     * fails only the chains that name it.
     *
     * @throws IllegalArgumentException when {@code group} is neither side or a filter rejects a key's value
     */
    public static void checkKeys(URL url, String group, ExtensionDirector director) {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(director, "director");
        checkGroup(group);
        ExtensionLoader<Filter> loader = director.getExtensionLoader(Filter.class);
        for (String name : loader.getSupportedExtensions()) {
            Class<?> type = loader.getExtensionClass(name);
            if (UrlCheckingFilter.class.isAssignableFrom(type) && !belongsToOtherSide(type, group)) {
                ((UrlCheckingFilter) loader.getExtension(name, false)).checkUrl(url);
            }
        }
    }

    /**
     * {@code invoker} inside {@code filters}, the first outermost; {@code invoker} itself when there
     * are none. A {@link ChainScopedFilter} is asked for this chain's own filter, so its state
     * belongs to the chain. Inside the chain {@code next.invoke} never throws: what a filter or the
     * invoker throws becomes a failed result ({@link Filter}). The chain's own {@code invoke}, as
     * {@link Invoker#invoke} allows, throws a failure known when it returns.
     */
    public static <T> Invoker<T> wrap(Invoker<T> invoker, List<Filter> filters) {
        Objects.requireNonNull(invoker, "invoker");
        if (filters.isEmpty()) {
            return invoker;
        }
        Invoker<T> next = new Link<>(invoker, null, invoker.getClass().getSimpleName(), invoker, false);
        for (int i = filters.size() - 1; i >= 0; i--) {
            Filter filter = Objects.requireNonNull(filters.get(i), "filter");
            Filter forChain = filter instanceof ChainScopedFilter scoped
                    ? Objects.requireNonNull(scoped.forChain(invoker), "forChain") : filter;
            next = new Link<>(invoker, forChain, filter.getClass().getSimpleName(), next, i == 0);
        }
        return next;
    }

    private static void checkGroup(String group) {
        if (!CONSUMER.equals(group) && !PROVIDER.equals(group) && !CALL.equals(group)) {
            throw new IllegalArgumentException("filter group: " + group + " (expected: " + CONSUMER + ", " + PROVIDER + " or " + CALL + ")");
        }
    }

    private static boolean belongsToOtherSide(Class<?> filterClass, String group) {
        Activate activate = filterClass.getAnnotation(Activate.class);
        return activate != null && activate.group().length > 0 && !Arrays.asList(activate.group()).contains(group);
    }

    /** One filter and the rest of the chain after it; with no filter, the invoker at the end of the chain. */
    private static final class Link<T> implements Invoker<T> {

        private final Invoker<T> inner;
        private final Filter filter;
        private final String name;
        private final Invoker<T> next;
        /** Whether this is the chain's own invoker, which throws a failure known at return. */
        private final boolean outermost;

        Link(Invoker<T> inner, Filter filter, String name, Invoker<T> next, boolean outermost) {
            this.inner = inner;
            this.filter = filter;
            this.name = name;
            this.next = next;
            this.outermost = outermost;
        }

        @Override
        public Class<T> getInterface() {
            return inner.getInterface();
        }

        @Override
        public Result invoke(Invocation invocation) {
            Result result;
            try {
                result = filter != null ? filter.invoke(next, invocation) : next.invoke(invocation);
            } catch (RuntimeException | Error e) {
                Results.rethrowIfFatal(e);
                if (outermost) {
                    throw e;
                }
                return AsyncResult.failed(e);
            }
            if (result == null) {
                return AsyncResult.failed(new RpcException("Result of " + RpcInvocation.signature(invocation) + " from " + name
                        + ": null (expected: a Result)"));
            }
            return outermost ? Results.throwIfFailed(result) : result;
        }

        @Override
        public URL getUrl() {
            return inner.getUrl();
        }

        @Override
        public boolean isAvailable() {
            return inner.isAvailable();
        }

        @Override
        public void destroy() {
            inner.destroy();
        }

        @Override
        public String toString() {
            return filter == null ? String.valueOf(next) : name + " -> " + next;
        }
    }
}
