package dev.weft.rpc.examples;

/**
 * A problem with the command line: printed as one line, exit code 2, never a stack trace.
 * The message follows the project format {@code what: value (expected: rule)}.
 */
final class UsageException extends Exception {

    private static final long serialVersionUID = 1L;

    UsageException(String message) {
        super(message);
    }

    UsageException(String message, Throwable cause) {
        super(message, cause);
    }
}
