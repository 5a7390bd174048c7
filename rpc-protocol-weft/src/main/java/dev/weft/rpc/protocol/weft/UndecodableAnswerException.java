package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.RpcException;

/**
 * An answer the consumer could not read (a body that does not decode as the declared type, or an
 * unexpected serialization id): a failure of the call, {@link RpcException#SERIALIZATION_EXCEPTION},
 * never the service's own exception, and never retried (the provider ran the call).
 */
final class UndecodableAnswerException extends RpcException {

    private static final long serialVersionUID = 1L;

    UndecodableAnswerException(String message, Throwable cause) {
        super(SERIALIZATION_EXCEPTION, message, cause);
    }
}
