package dev.weft.rpc.proxy.internal;

/**
 * Calls method {@code index} of a {@link ServiceMethods} table on an implementation.
 *
 * <p>Public only because generated dispatcher classes, defined in the interface's package,
 * implement it. Implementations are stateless and thread-safe.
 */
public interface MethodDispatcher {

    /**
     * Calls the method. The caller has already checked that {@code impl} implements the
     * interface and that {@code args} fit the parameter types.
     *
     * @return the return value, primitives boxed, {@code null} for {@code void}
     * @throws Throwable whatever the implementation throws, unchanged
     */
    Object dispatch(Object impl, int index, Object[] args) throws Throwable;
}
