package dev.weft.rpc.common;

/**
 * An invoker that shows another one under a different URL, such as a registry directory's view
 * of a provider with override rules applied. Anything kept per provider (call statistics,
 * connections) belongs to {@link #underlying()}, so replacing the view when only URL parameters
 * change (a new {@code weight} or {@code timeout}) keeps it.
 *
 * @param <T> the service interface
 */
public interface InvokerView<T> extends Invoker<T> {

    /** The invoker this view shows; never {@code null}, and the same for the view's whole life. */
    Invoker<T> underlying();

    /** {@code invoker} itself, or the invoker at the bottom of its chain of views. */
    static Invoker<?> unwrap(Invoker<?> invoker) {
        Invoker<?> current = invoker;
        while (current instanceof InvokerView<?> view) {
            current = view.underlying();
        }
        return current;
    }
}
