package dev.weft.rpc.mock;

/**
 * Why a part of a mock expression does not fit a method or class loader; the caller turns it into
 * a {@link MockConfigurationException} naming the key and method. Carries no stack trace.
 */
final class Rejection extends Exception {

    private static final long serialVersionUID = 1L;

    private final String expected;
    private final int position;

    Rejection(String expected, int position, String detail) {
        super(detail, null, false, false);
        this.expected = expected;
        this.position = position;
    }

    /** What would have been accepted, e.g. {@code a value of type int}. */
    String expected() {
        return expected;
    }

    /** 0-based position in the expression, or -1. */
    int position() {
        return position;
    }

    /** What was found instead. */
    String detail() {
        return getMessage();
    }
}
