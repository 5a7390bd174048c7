package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.InvokerView;
import dev.weft.rpc.common.URL;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * One immutable state of a directory: the consumer URL, the providers, and which of them were
 * found available when the state was published. A directory publishes a new state on every change
 * (members, consumer URL, availability) and callers read the current one with one volatile read, so
 * a call always sees one consistent state and everything derived from a state (settings, pickers)
 * is computed once per state.
 *
 * <p>Providers whose URL protocol is {@code mock} are kept apart ({@link #mockInvokers()}): only
 * calls asking for mocks see them. Directories build states with {@link #of}; the lists of a state
 * are immutable. Immutable and thread-safe.
 *
 * @param url            the consumer URL
 * @param version        grows with every state a directory publishes
 * @param availableCheck whether unavailable providers are left out ({@code cluster.availablecheck}, default true)
 * @param allInvokers    every member in the order given, mock ones included
 * @param invokers       the providers (members that are not {@code mock} invokers), in order
 * @param mockInvokers   the {@code mock}-protocol members
 * @param candidates     the providers a call chooses among: with the availability check, those available at
 *                       publication (a provider that went down since is found when picked), else all
 * @param down           the providers that were unavailable at publication (none without the availability check)
 * @param ejected        the providers ejected as outliers ({@link OutlierDetector}): left out of the candidates
 *                       unless no other provider is available
 * @param routes         the candidates routed per method and route key by the directory's {@link Router}
 *                       (every candidate when it has none)
 * @param <T>            the service interface
 */
public record DirectoryState<T>(URL url, long version, boolean availableCheck, List<Invoker<T>> allInvokers,
                                List<Invoker<T>> invokers, List<Invoker<T>> mockInvokers, List<Invoker<T>> candidates,
                                List<Invoker<T>> down, List<Invoker<T>> ejected, Routes<T> routes) {

    /** The URL protocol of mock invokers, listed only for calls asking for mocks. */
    public static final String MOCK_PROTOCOL = "mock";

    /** Consumer URL key: leave out providers whose {@link Invoker#isAvailable()} is false (default {@code true}). */
    public static final String AVAILABLE_CHECK_KEY = "cluster.availablecheck";

    /**
     * A state of {@code members} under {@code url}; with {@value #AVAILABLE_CHECK_KEY} (the default),
     * each non-mock member is asked {@link Invoker#isAvailable()} now.
     */
    static <T> DirectoryState<T> of(URL url, List<Invoker<T>> members, long version) {
        return of(url, members, Router.none(), version, Set.of());
    }

    /**
     * {@link #of(URL, List, long)}, its candidates routed by {@code router}, leaving out of the
     * candidates the members showing a provider of {@code ejected} (compared as providers,
     * {@link InvokerView#unwrap}).
     */
    static <T> DirectoryState<T> of(URL url, List<Invoker<T>> members, Router<T> router, long version,
                                    Set<Invoker<?>> ejected) {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(router, "router");
        boolean availableCheck = url.getParameter(AVAILABLE_CHECK_KEY, true);
        List<Invoker<T>> all = List.copyOf(members);
        List<Invoker<T>> normal = new ArrayList<>(all.size());
        List<Invoker<T>> mock = new ArrayList<>(0);
        for (Invoker<T> invoker : all) {
            URL provider = invoker.getUrl();
            (provider != null && MOCK_PROTOCOL.equals(provider.getProtocol()) ? mock : normal).add(invoker);
        }
        List<Invoker<T>> invokers = mock.isEmpty() ? all : List.copyOf(normal);
        List<Invoker<T>> out = ejected.isEmpty() ? List.of()
                : invokers.stream().filter(invoker -> ejected.contains(InvokerView.unwrap(invoker))).toList();
        return withAvailability(url, version, availableCheck, all, invokers, List.copyOf(mock), out, router);
    }

    private static <T> DirectoryState<T> withAvailability(URL url, long version, boolean availableCheck, List<Invoker<T>> all,
                                                          List<Invoker<T>> invokers, List<Invoker<T>> mock, List<Invoker<T>> ejected,
                                                          Router<T> router) {
        List<Invoker<T>> up = new ArrayList<>(invokers.size());
        List<Invoker<T>> upEjected = new ArrayList<>(0);
        List<Invoker<T>> down = new ArrayList<>(0);
        for (Invoker<T> invoker : invokers) {
            if (availableCheck && !invoker.isAvailable()) {
                down.add(invoker);
            } else {
                (ejected.contains(invoker) ? upEjected : up).add(invoker);
            }
        }
        // an ejected provider still serves when no other one can
        List<Invoker<T>> candidates = up.isEmpty() ? upEjected : up.size() == invokers.size() ? invokers : List.copyOf(up);
        return new DirectoryState<>(url, version, availableCheck, all, invokers, mock, candidates, List.copyOf(down), ejected,
                new Routes<>(router, candidates));
    }

    /** This state with availability checked again, as {@code nextVersion}. */
    DirectoryState<T> rechecked(long nextVersion) {
        return withAvailability(url, nextVersion, availableCheck, allInvokers, invokers, mockInvokers, ejected, routes.router());
    }

    /** This state with the members showing a provider of {@code providers} ejected instead, as {@code nextVersion}. */
    DirectoryState<T> withEjected(Set<Invoker<?>> providers, long nextVersion) {
        return of(url, allInvokers, routes.router(), nextVersion, providers);
    }

    /** Whether, under the availability check, some provider is available now that was not at publication, or the reverse. */
    boolean availabilityChanged() {
        return availableCheck && (anyRecovered() || candidates.stream().anyMatch(invoker -> !invoker.isAvailable()));
    }

    /** Whether some member that was down at publication is available now (O(number down)). */
    boolean anyRecovered() {
        for (int i = 0, n = down.size(); i < n; i++) {
            if (down.get(i).isAvailable()) {
                return true;
            }
        }
        return false;
    }

    /** Whether {@code a} and {@code b} hold the same invokers (by identity) in the same order. */
    static <T> boolean sameMembers(List<Invoker<T>> a, List<Invoker<T>> b) {
        return a.size() == b.size() && IntStream.range(0, a.size()).allMatch(i -> a.get(i) == b.get(i));
    }

    @Override
    public String toString() {
        return "DirectoryState[v" + version + ", " + invokers.size() + " providers (" + candidates.size() + " available"
                + (ejected.isEmpty() ? "" : ", " + ejected.size() + " ejected") + ")"
                + (mockInvokers.isEmpty() ? "" : ", " + mockInvokers.size() + " mock") + ", " + url + "]";
    }
}
