package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.URL;

import java.util.List;
import java.util.Objects;

/**
 * A directory of a fixed list of invokers, e.g. providers given by configuration.
 *
 * <p>Thread-safe and immutable apart from {@link #destroy()}. It does not own the invokers:
 * destroying it drops its references and destroys none of them.
 *
 * @param <T> the service interface
 */
public class StaticDirectory<T> extends AbstractDirectory<T> {

    /**
     * A directory of {@code invokers}; the interface is taken from the first one.
     *
     * @throws IllegalArgumentException when {@code invokers} is empty (use the constructor taking
     *                                  the interface) or the invokers serve different interfaces
     */
    public StaticDirectory(URL consumerUrl, List<Invoker<T>> invokers) {
        this(interfaceOf(invokers), consumerUrl, invokers);
    }

    /**
     * A directory of {@code invokers} (may be empty) serving {@code type}.
     *
     * @throws IllegalArgumentException when an invoker serves another interface
     */
    public StaticDirectory(Class<T> type, URL consumerUrl, List<Invoker<T>> invokers) {
        super(type, consumerUrl);
        publish(null, Objects.requireNonNull(invokers, "invokers"));
    }

    private static <T> Class<T> interfaceOf(List<Invoker<T>> invokers) {
        Objects.requireNonNull(invokers, "invokers");
        if (invokers.isEmpty()) {
            throw new IllegalArgumentException("invokers: [] (expected: at least one invoker to take the interface from;"
                    + " use StaticDirectory(Class, URL, List) for an empty directory)");
        }
        Invoker<T> first = Objects.requireNonNull(invokers.get(0), "invokers[0]");
        return Objects.requireNonNull(first.getInterface(), "invokers[0].getInterface()");
    }
}
