package dev.weft.rpc.admin;

/**
 * A command that cannot be carried out, with the exit code {@link WeftAdmin} returns for it and
 * the lines it prints.
 */
final class AdminException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    /** Exit code: bad arguments, or a rule consumers would refuse (nothing was written). */
    static final int REFUSED = 1;
    /** Exit code: the registry could not be read or written. */
    static final int REGISTRY = 2;

    private final int exitCode;

    AdminException(int exitCode, String message) {
        super(message);
        this.exitCode = exitCode;
    }

    static AdminException refused(String message) {
        return new AdminException(REFUSED, message);
    }

    int exitCode() {
        return exitCode;
    }
}
