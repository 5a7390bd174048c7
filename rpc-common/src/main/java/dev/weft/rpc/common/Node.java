package dev.weft.rpc.common;

/**
 * Something addressed by a {@link URL} that can be available and can be destroyed:
 * a provider invoker, a directory, a cluster invoker.
 *
 * <p>Implementations say in their Javadoc whether they are thread-safe; every implementation
 * in Weft is.
 */
public interface Node {

    /** The URL describing this node; never {@code null}. */
    URL getUrl();

    /** Whether this node can take calls right now. */
    boolean isAvailable();

    /** Releases what this node owns; idempotent. */
    void destroy();
}
