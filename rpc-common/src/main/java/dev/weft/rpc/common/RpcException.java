package dev.weft.rpc.common;

/**
 * A failure to carry out a call, with a code telling what kind.
 *
 * <p>Cluster strategies retry network and timeout failures; a {@link #isBiz() business}
 * failure is the service's own answer and is never retried.
 */
public class RpcException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public static final int UNKNOWN_EXCEPTION = 0;
    public static final int NETWORK_EXCEPTION = 1;
    public static final int TIMEOUT_EXCEPTION = 2;
    public static final int BIZ_EXCEPTION = 3;
    public static final int FORBIDDEN_EXCEPTION = 4;
    public static final int SERIALIZATION_EXCEPTION = 5;
    public static final int NO_INVOKER_AVAILABLE = 6;
    /**
     * The request was not run (the provider was shutting down, or its queue was full before the
     * call started): safe to retry on another provider, even for a strategy that never retries.
     */
    public static final int NOT_PROCESSED = 7;
    /** The caller cancelled the call; never retried. */
    public static final int CANCELLED = 8;

    private final int code;

    public RpcException(String message) {
        this(UNKNOWN_EXCEPTION, message, null);
    }

    public RpcException(int code, String message) {
        this(code, message, null);
    }

    public RpcException(int code, Throwable cause) {
        this(code, cause == null ? null : cause.toString(), cause);
    }

    public RpcException(String message, Throwable cause) {
        this(UNKNOWN_EXCEPTION, message, cause);
    }

    public RpcException(int code, String message, Throwable cause) {
        super(message, cause);
        this.code = code;
    }

    /** The code, one of the constants of this class. */
    public int getCode() {
        return code;
    }

    /** The service itself failed; never retried. */
    public boolean isBiz() {
        return code == BIZ_EXCEPTION;
    }

    /** The network failed; safe to retry elsewhere for idempotent calls. */
    public boolean isNetwork() {
        return code == NETWORK_EXCEPTION;
    }

    /** The call timed out. */
    public boolean isTimeout() {
        return code == TIMEOUT_EXCEPTION;
    }

    /** Whether the provider never ran the call, so another provider may be tried safely. */
    public boolean isNotProcessed() {
        return code == NOT_PROCESSED;
    }

    /** Whether the caller cancelled the call. */
    public boolean isCancelled() {
        return code == CANCELLED;
    }

    /** Whether the call failed with no provider to try. */
    public boolean isNoInvokerAvailable() {
        return code == NO_INVOKER_AVAILABLE;
    }

    /** Whether the call failed for lack of permission. */
    public boolean isForbidden() {
        return code == FORBIDDEN_EXCEPTION;
    }

    /** Whether arguments or results could not be (de)serialised. */
    public boolean isSerialization() {
        return code == SERIALIZATION_EXCEPTION;
    }
}
