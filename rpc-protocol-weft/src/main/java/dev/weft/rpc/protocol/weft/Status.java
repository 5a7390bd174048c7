package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.RpcException;

/** Response statuses (header byte 4 of a response) and the consumer's reading of each. */
final class Status {

    /** The body is the result value. */
    static final int OK = 0;
    /** The service threw; the body is a {@link RemoteError}. */
    static final int SERVICE_ERROR = 1;
    /** Not run (server busy or shutting down): safe to retry elsewhere. Body: UTF-8 reason. */
    static final int NOT_PROCESSED = 2;
    /** The call's deadline passed before it ran; not run. Body: UTF-8 reason. */
    static final int DEADLINE_EXPIRED = 3;
    /** The request could not be decoded. Body: UTF-8 reason. */
    static final int BAD_REQUEST = 4;
    /** No such service or method here (e.g. just unexported); not run. Body: UTF-8 reason. */
    static final int SERVICE_NOT_FOUND = 5;
    /** A frame exceeded {@code payload}. Body: UTF-8 reason. */
    static final int PAYLOAD_TOO_LARGE = 6;
    /** The provider failed outside the service (e.g. the result could not be encoded). */
    static final int SERVER_ERROR = 7;

    private Status() {
    }

    /** The {@link RpcException} code a consumer reports for a non-OK, non-service-error status. */
    static int rpcCode(int status) {
        return switch (status) {
            case NOT_PROCESSED, SERVICE_NOT_FOUND -> RpcException.NOT_PROCESSED;
            case DEADLINE_EXPIRED -> RpcException.TIMEOUT_EXCEPTION;
            // SERVER_ERROR: the provider ran the call and could not encode its answer; never retried
            case BAD_REQUEST, PAYLOAD_TOO_LARGE, SERVER_ERROR -> RpcException.SERIALIZATION_EXCEPTION;
            default -> RpcException.UNKNOWN_EXCEPTION;
        };
    }

    static String name(int status) {
        return switch (status) {
            case OK -> "OK";
            case SERVICE_ERROR -> "SERVICE_ERROR";
            case NOT_PROCESSED -> "NOT_PROCESSED";
            case DEADLINE_EXPIRED -> "DEADLINE_EXPIRED";
            case BAD_REQUEST -> "BAD_REQUEST";
            case SERVICE_NOT_FOUND -> "SERVICE_NOT_FOUND";
            case PAYLOAD_TOO_LARGE -> "PAYLOAD_TOO_LARGE";
            case SERVER_ERROR -> "SERVER_ERROR";
            default -> "status " + status;
        };
    }
}
