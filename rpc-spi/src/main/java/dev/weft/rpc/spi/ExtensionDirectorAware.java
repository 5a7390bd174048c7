package dev.weft.rpc.spi;

/**
 * Implemented by extensions that need the {@link ExtensionDirector} that created them, e.g. to
 * reach other extension points of the same director (a cluster asking for its balancers).
 *
 * <p>The loader calls {@link #setExtensionDirector} once, right after construction and before
 * setter injection and wrapping.
 */
public interface ExtensionDirectorAware {

    /** Receives the director that created this extension. */
    void setExtensionDirector(ExtensionDirector director);
}
