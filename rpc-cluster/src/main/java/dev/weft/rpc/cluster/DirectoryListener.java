package dev.weft.rpc.cluster;

/**
 * Checks each state a directory is about to publish, and may veto it.
 *
 * <p>Cluster invokers joined to a directory are listeners (they resolve their per-method settings
 * from a state and reject bad ones); so is the mock wrapper of {@code rpc-mock}. Register with
 * {@link AbstractDirectory#addListener}.
 *
 * <p>Implementations are thread-safe; a directory calls them under its own lock, one state at a
 * time, so they should be quick and must not change the directory.
 *
 * @param <T> the service interface
 */
@FunctionalInterface
public interface DirectoryListener<T> {

    /**
     * Checks {@code next} before it is published. Throwing vetoes it: the change that produced it
     * ({@code setUrl}, {@code setInvokers}, {@code setState}) throws this exception and the current
     * state keeps serving. Throw {@link IllegalArgumentException} with a
     * {@code what: value (expected: rule)} message.
     */
    void check(DirectoryState<T> next);
}
