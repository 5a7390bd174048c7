package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Result;
import dev.weft.rpc.common.ThrottledLog;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;

import java.lang.reflect.Method;

/**
 * The answer frame of a call that ran, which is always produced: a value or service error that
 * cannot be encoded — a serializer that throws, a {@code getMessage()} that overflows the stack,
 * a body over {@code payload} — becomes a small BAD_RESPONSE answer naming why, so that the caller
 * gets an error rather than waiting, the business thread carries on, and the half-written buffer
 * is released. An answer body never grows past {@code payload}: the encoder stops there instead
 * of allocating a hundred megabytes to refuse them afterwards. Stateless.
 */
final class AnswerEncoder {

    private AnswerEncoder() {
    }

    /** Never throws. */
    static ByteBuf encode(ByteBufAllocator alloc, ExportedService service, Method method, long id, Result result,
                          ExceptionCodec exceptions, int payload, PeerWarnings warnings) {
        try {
            if (result.hasException()) {
                return ResponseCodec.error(alloc, service.serialization(), id,
                        exceptions.describe(result.getException(), method, service.serialization()), payload);
            }
            return ResponseCodec.value(alloc, service.serialization(), id, method, result.getValue(), payload);
        } catch (Throwable e) { // Errors too: nothing an answer's encoding throws may leave its call unanswered
            String what = result.hasException() ? "exception" : "result";
            String reason = ResponseCodec.isOverLimit(e)
                    ? "the encoded " + what + " exceeds payload " + payload + " bytes (expected: a smaller " + what + ")"
                    : describe(e);
            warnings.warn(PeerWarnings.Kind.ANSWER_NOT_ENCODED, "weft server: cannot encode the " + what + " of "
                    + service.key() + "#" + method.getName() + ": " + reason);
            return ResponseCodec.status(alloc, id, Status.BAD_RESPONSE, "the " + what + " of " + method.getName()
                    + " could not be encoded: " + reason);
        }
    }

    /** The class and message of {@code e}, or only its class when the message itself fails. */
    private static String describe(Throwable e) {
        try {
            return ThrottledLog.describe(e);
        } catch (Throwable messageFailed) {
            return e.getClass().getSimpleName();
        }
    }
}
