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
    private final transient PeerWarnings.Kind kind;

    MalformedFrameException(String message, boolean request, long requestId) {
        this(message, request, requestId, PeerWarnings.Kind.MALFORMED_FRAME);
    }

    MalformedFrameException(String message, boolean request, long requestId, PeerWarnings.Kind kind) {
        super(message);
        this.request = request;
        this.requestId = requestId;
        this.kind = kind;
    }

    /** The kind of warning the closed connection is logged under. */
    PeerWarnings.Kind kind() {
        return kind == null ? PeerWarnings.Kind.MALFORMED_FRAME : kind;
    }

    /** Whether the rejected header was a two-way request that can still be answered. */
    boolean isAnswerableRequest() {
        return request;
    }

    long requestId() {
        return requestId;
    }
}
