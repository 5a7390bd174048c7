package dev.weft.rpc.protocol.weft;

import io.netty.handler.codec.CorruptedFrameException;

/**
 * Bytes on a connection that are not a valid frame. The connection cannot be trusted to stay in
 * step, so it is closed; when the header was readable, {@link #requestId()} names the request that
 * may be answered first.
 */
final class MalformedFrameException extends CorruptedFrameException {

    private static final long serialVersionUID = 1L;

    private final transient boolean request;
    private final long requestId;

    MalformedFrameException(String message, boolean request, long requestId) {
        super(message);
        this.request = request;
        this.requestId = requestId;
    }

    /** Whether the rejected header was a two-way request that can still be answered. */
    boolean isAnswerableRequest() {
        return request;
    }

    long requestId() {
        return requestId;
    }
}
