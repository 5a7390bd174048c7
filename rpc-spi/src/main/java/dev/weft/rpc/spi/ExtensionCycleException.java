package dev.weft.rpc.spi;

/**
 * An extension needs itself, through injection, wrapping or its constructor. Its own type so the
 * loader passes it through unchanged instead of wrapping it in "cannot create" errors that would
 * hide the chain.
 */
final class ExtensionCycleException extends IllegalStateException {

    private static final long serialVersionUID = 1L;

    ExtensionCycleException(String message) {
        super(message);
    }
}
