package dev.weft.rpc.cluster.internal;

import dev.weft.rpc.common.Invoker;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The available members of an invoker list, remembered between calls so that reads allocate
 * nothing while availability does not change.
 *
 * <p>Two reads:
 * <ul>
 *   <li>{@link #of(List)}, exact: checks {@link Invoker#isAvailable()} on every member (O(n)).</li>
 *   <li>{@link #candidates(List)}, lazy: re-checks only the members found down at the last exact
 *       read (O(number down), nothing at all in the common case where all are up). A member that
 *       went down since is still included; callers check the one they pick and call
 *       {@link #of(List)} when it is down, which records it as down for later lazy reads.</li>
 * </ul>
 * Both return the source list itself while every member is (known to be) available, else a
 * filtered immutable list that is the same instance for as long as the same members are down, so
 * balancers caching per list identity keep their state.
 *
 * <p>Thread-safe: the remembered state is one immutable object behind a volatile field; racing
 * threads may each compute an equal state, and the last one is kept.
 *
 * @param <T> the service interface
 */
public final class AvailableInvokers<T> {

    private volatile Filtered<T> last;

    /** The available invokers of {@code source}, preserving order, each checked now. */
    public List<Invoker<T>> of(List<Invoker<T>> source) {
        Filtered<T> cached = last;
        if (cached != null && cached.source == source && cached.matchesNow()) {
            return cached.available;
        }
        Filtered<T> fresh = Filtered.of(source);
        last = fresh;
        return fresh.available;
    }

    /**
     * The invokers of {@code source} not known to be down, preserving order: as {@link #of(List)}
     * at its last call, except that members found down then are re-checked now.
     */
    public List<Invoker<T>> candidates(List<Invoker<T>> source) {
        Filtered<T> cached = last;
        if (cached != null && cached.source == source && cached.noneRecovered()) {
            return cached.available;
        }
        return of(source);
    }

    /** Forgets the remembered state so the invokers it references can be reclaimed. */
    public void clear() {
        last = null;
    }

    /** One exact read: the source, its available members, and the members that were down. */
    private static final class Filtered<T> {
        private static final Invoker<?>[] NONE_DOWN = new Invoker<?>[0];

        final List<Invoker<T>> source;
        final List<Invoker<T>> available;
        final Invoker<?>[] down;

        private Filtered(List<Invoker<T>> source, List<Invoker<T>> available, Invoker<?>[] down) {
            this.source = source;
            this.available = available;
            this.down = down;
        }

        static <T> Filtered<T> of(List<Invoker<T>> source) {
            int n = source.size();
            List<Invoker<T>> available = new ArrayList<>(n);
            List<Invoker<T>> down = new ArrayList<>(0);
            for (int i = 0; i < n; i++) {
                Invoker<T> invoker = source.get(i);
                (invoker.isAvailable() ? available : down).add(invoker);
            }
            if (down.isEmpty()) {
                return new Filtered<>(source, source, NONE_DOWN);
            }
            List<Invoker<T>> listed = available.isEmpty() ? List.of() : Collections.unmodifiableList(available);
            return new Filtered<>(source, listed, down.toArray(NONE_DOWN));
        }

        /** Whether {@link #available} is exactly the available members of {@link #source} now, in order. */
        boolean matchesNow() {
            List<Invoker<T>> members = source;
            List<Invoker<T>> listedNow = available;
            if (listedNow == members) {
                for (int i = 0, n = members.size(); i < n; i++) {
                    if (!members.get(i).isAvailable()) {
                        return false;
                    }
                }
                return true;
            }
            int next = 0;
            int availableSize = listedNow.size();
            for (int i = 0, n = members.size(); i < n; i++) {
                Invoker<T> invoker = members.get(i);
                boolean listed = next < availableSize && listedNow.get(next) == invoker;
                if (invoker.isAvailable() != listed) {
                    return false;
                }
                if (listed) {
                    next++;
                }
            }
            return next == availableSize;
        }

        /** Whether every member that was down still is. */
        boolean noneRecovered() {
            for (Invoker<?> invoker : down) {
                if (invoker.isAvailable()) {
                    return false;
                }
            }
            return true;
        }
    }
}
