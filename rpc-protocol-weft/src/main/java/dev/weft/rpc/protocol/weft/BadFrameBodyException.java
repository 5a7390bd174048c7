package dev.weft.rpc.protocol.weft;

/** A frame body that does not decode: answered with {@link Status#BAD_REQUEST}, never fatal to the server. */
final class BadFrameBodyException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    BadFrameBodyException(String message) {
        super(message);
    }

    BadFrameBodyException(String message, Throwable cause) {
        super(message, cause);
    }
}
