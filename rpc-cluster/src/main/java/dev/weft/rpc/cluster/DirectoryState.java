package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One immutable state of a directory: the consumer URL, the providers, and which of them were
 * found available when the state was published. A directory publishes a new state on every change
 * (members, consumer URL, availability) and callers read the current one with one volatile read, so
 * a call always sees one consistent state and everything derived from a state (settings, pickers)
 * is computed once per state.
 *
 * <p>Providers whose URL protocol is {@code mock} are kept apart ({@link #mockInvokers()}): only
 * calls asking for mocks see them. {@link #version()} grows with every publication of a directory.
 *
 * <p>Immutable and thread-safe.
 *
 * @param <T> the service interface
 */
public final class DirectoryState<T> {

    /** The URL protocol of mock invokers, listed only for calls asking for mocks. */
    public static final String MOCK_PROTOCOL = "mock";

    private final URL url;
    private final long version;
    private final boolean availableCheck;
    private final List<Invoker<T>> all;
    private final List<Invoker<T>> invokers;
    private final List<Invoker<T>> mockInvokers;
    private final List<Invoker<T>> candidates;
    private final List<Invoker<T>> down;

    private DirectoryState(URL url, long version, boolean availableCheck, List<Invoker<T>> all, List<Invoker<T>> invokers,
                           List<Invoker<T>> mockInvokers, List<Invoker<T>> candidates, List<Invoker<T>> down) {
        this.url = url;
        this.version = version;
        this.availableCheck = availableCheck;
        this.all = all;
        this.invokers = invokers;
        this.mockInvokers = mockInvokers;
        this.candidates = candidates;
        this.down = down;
    }

    /**
     * A state of {@code members} under {@code url}; with {@code availableCheck}, each non-mock member
     * is asked {@link Invoker#isAvailable()} now.
     */
    static <T> DirectoryState<T> of(URL url, List<Invoker<T>> members, long version, boolean availableCheck) {
        Objects.requireNonNull(url, "url");
        List<Invoker<T>> all = List.copyOf(members);
        List<Invoker<T>> normal = new ArrayList<>(all.size());
        List<Invoker<T>> mock = new ArrayList<>(0);
        for (Invoker<T> invoker : all) {
            URL provider = invoker.getUrl();
            (provider != null && MOCK_PROTOCOL.equals(provider.getProtocol()) ? mock : normal).add(invoker);
        }
        List<Invoker<T>> invokers = mock.isEmpty() ? all : List.copyOf(normal);
        return withAvailability(url, version, availableCheck, all, invokers, List.copyOf(mock));
    }

    private static <T> DirectoryState<T> withAvailability(URL url, long version, boolean availableCheck, List<Invoker<T>> all,
                                                          List<Invoker<T>> invokers, List<Invoker<T>> mock) {
        if (!availableCheck) {
            return new DirectoryState<>(url, version, false, all, invokers, mock, invokers, List.of());
        }
        List<Invoker<T>> up = new ArrayList<>(invokers.size());
        List<Invoker<T>> down = new ArrayList<>(0);
        for (Invoker<T> invoker : invokers) {
            (invoker.isAvailable() ? up : down).add(invoker);
        }
        return new DirectoryState<>(url, version, true, all, invokers, mock, down.isEmpty() ? invokers : List.copyOf(up),
                List.copyOf(down));
    }

    /** This state with availability checked again, as {@code nextVersion}. */
    DirectoryState<T> rechecked(long nextVersion) {
        return withAvailability(url, nextVersion, availableCheck, all, invokers, mockInvokers);
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
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0, n = a.size(); i < n; i++) {
            if (a.get(i) != b.get(i)) {
                return false;
            }
        }
        return true;
    }

    /** The consumer URL. */
    public URL url() {
        return url;
    }

    /** Grows with every state a directory publishes. */
    public long version() {
        return version;
    }

    /** Whether unavailable providers are left out ({@code cluster.availablecheck}, default true). */
    public boolean availableCheck() {
        return availableCheck;
    }

    /** Every member in the order given, mock ones included. */
    public List<Invoker<T>> allInvokers() {
        return all;
    }

    /** The providers (members that are not {@code mock} invokers), in order. */
    public List<Invoker<T>> invokers() {
        return invokers;
    }

    /** The {@code mock}-protocol members. */
    public List<Invoker<T>> mockInvokers() {
        return mockInvokers;
    }

    /**
     * The providers a call chooses among: with the availability check, those available at
     * publication (a provider that went down since is found when picked), else all.
     */
    public List<Invoker<T>> candidates() {
        return candidates;
    }

    /** Whether some provider was unavailable at publication. */
    public boolean hasDown() {
        return !down.isEmpty();
    }

    @Override
    public String toString() {
        return "DirectoryState[v" + version + ", " + invokers.size() + " providers (" + candidates.size() + " available)"
                + (mockInvokers.isEmpty() ? "" : ", " + mockInvokers.size() + " mock") + ", " + url + "]";
    }
}
