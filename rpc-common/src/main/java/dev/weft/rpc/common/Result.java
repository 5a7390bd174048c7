package dev.weft.rpc.common;

/**
 * The outcome of an {@link Invocation}: a value, or the exception the service raised.
 *
 * <p>Implementations are immutable and thread-safe.
 */
public interface Result {

    /** The value, or {@code null} when there is none or the call raised an exception. */
    Object getValue();

    /** The exception raised by the service, or {@code null}. */
    Throwable getException();

    /** Whether {@link #getException()} is non-null. */
    boolean hasException();

    /**
     * The value, or throws the exception: what a proxy returns to the caller.
     *
     * @throws Throwable the carried exception, unchanged
     */
    Object recreate() throws Throwable;
}
