package dev.weft.rpc.cluster.internal;

import dev.weft.rpc.common.Invoker;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * The available members of an invoker list, computed without allocating while nothing changes.
 *
 * <p>{@link #of(List)} returns the source list itself when every invoker is available, else a
 * filtered immutable list that is reused (same instance) for as long as the same invokers stay
 * down, so balancers caching per list identity keep their state. Each call checks
 * {@link Invoker#isAvailable()} once per invoker; a copy is made only when availability changed.
 *
 * <p>Thread-safe: the cached pair is one immutable object behind a volatile field; racing
 * threads may each compute an equal list, and the last one is kept.
 *
 * @param <T> the service interface
 */
public final class AvailableInvokers<T> {

    private volatile Filtered<T> last;

    /** The available invokers of {@code source}, preserving order. */
    public List<Invoker<T>> of(List<Invoker<T>> source) {
        Filtered<T> cached = last;
        if (cached != null && cached.source != source) {
            last = null;
            cached = null;
        }
        List<Invoker<T>> candidate = cached != null ? cached.available : source;
        if (matches(source, candidate)) {
            return candidate;
        }
        List<Invoker<T>> fresh = filter(source);
        last = new Filtered<>(source, fresh);
        return fresh;
    }

    /** Forgets the cached list so the invokers it references can be reclaimed. */
    public void clear() {
        last = null;
    }

    /** Whether {@code available} is exactly the available members of {@code source}, in order. */
    private static <T> boolean matches(List<Invoker<T>> source, List<Invoker<T>> available) {
        int next = 0;
        int availableSize = available.size();
        for (int i = 0, n = source.size(); i < n; i++) {
            Invoker<T> invoker = source.get(i);
            boolean listed = next < availableSize && available.get(next) == invoker;
            if (invoker.isAvailable() != listed) {
                return false;
            }
            if (listed) {
                next++;
            }
        }
        return next == availableSize;
    }

    private static <T> List<Invoker<T>> filter(List<Invoker<T>> source) {
        List<Invoker<T>> available = new ArrayList<>(source.size());
        for (int i = 0, n = source.size(); i < n; i++) {
            Invoker<T> invoker = source.get(i);
            if (invoker.isAvailable()) {
                available.add(invoker);
            }
        }
        if (available.size() == source.size()) {
            return source;
        }
        return available.isEmpty() ? List.of() : Collections.unmodifiableList(available);
    }

    private static final class Filtered<T> {
        final List<Invoker<T>> source;
        final List<Invoker<T>> available;

        Filtered(List<Invoker<T>> source, List<Invoker<T>> available) {
            this.source = source;
            this.available = available;
        }
    }
}
