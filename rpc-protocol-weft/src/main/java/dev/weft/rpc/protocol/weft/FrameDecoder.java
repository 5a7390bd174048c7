package dev.weft.rpc.protocol.weft;

import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;

/**
 * Turns bytes into {@link Frame}s: waits for a whole header, checks it (magic, version, flags,
 * reserved bytes, body length against {@code payload}) before any body byte is buffered, then
 * waits for the whole body. Any violation throws {@link MalformedFrameException} and the decoder
 * stops reading: the handler answers the request when it can and closes the connection.
 *
 * <p>A frame over {@code payload} whose header is otherwise valid keeps the stream in step, so
 * some are not violations: the decoder emits an {@link Oversized} for it and discards its body as
 * it arrives, without buffering it, so only that call fails and the connection, with every other
 * call on it, carries on. On a consumer this holds for any answer (its provider was chosen); on a
 * provider for a two-way request of at most twice {@code payload}: a consumer whose own limit is
 * higher gets an answer, while a larger length, which only a broken or hostile peer sends, is
 * still a violation, so that the provider never reads more than one extra payload for a request
 * it refuses.
 *
 * <p>Not sharable: one instance per channel (it keeps partial input).
 */
final class FrameDecoder extends ByteToMessageDecoder {

    private final int maxBodyLength;
    private final boolean consumer;
    private boolean failed;
    /** Body bytes of an oversized frame still to discard. */
    private long skipping;

    private FrameDecoder(int maxBodyLength, boolean consumer) {
        this.maxBodyLength = maxBodyLength;
        this.consumer = consumer;
    }

    /** A provider's decoder: skips two-way requests of up to twice {@code maxBodyLength}; see the class comment. */
    static FrameDecoder forProvider(int maxBodyLength) {
        return new FrameDecoder(maxBodyLength, false);
    }

    /** A consumer's decoder: skips oversized answers; see the class comment. */
    static FrameDecoder forConsumer(int maxBodyLength) {
        return new FrameDecoder(maxBodyLength, true);
    }

    /**
     * A frame for request {@code requestId} (an answer on a consumer, a request on a provider) whose
     * body of {@code bodyLength} bytes was over the limit and discarded.
     */
    record Oversized(long requestId, long bodyLength, int maxBodyLength) {
    }

    @Override
    protected void decode(ChannelHandlerContext ctx, ByteBuf in, List<Object> out) {
        if (failed) {
            in.skipBytes(in.readableBytes());
            return;
        }
        if (skipping > 0) {
            int discarded = (int) Math.min(in.readableBytes(), skipping);
            in.skipBytes(discarded);
            skipping -= discarded;
            if (skipping > 0) {
                return;
            }
        }
        if (in.readableBytes() < Frame.HEADER_LENGTH) {
            return;
        }
        int start = in.readerIndex();
        int magic = in.getUnsignedShort(start);
        if (magic != Frame.MAGIC) {
            throw fail(in, String.format("frame magic: 0x%04x (expected: 0x%04x)", magic, Frame.MAGIC), false, 0);
        }
        int version = in.getUnsignedByte(start + 2);
        if (version != Frame.VERSION) {
            throw fail(in, "frame version: " + version + " (expected: " + Frame.VERSION + ")", false, 0);
        }
        int flags = in.getUnsignedByte(start + 3);
        if ((flags & ~Frame.KNOWN_FLAGS) != 0) {
            throw fail(in, String.format("frame flags: 0x%02x (expected: only bits 0x%02x)", flags, Frame.KNOWN_FLAGS),
                    false, 0);
        }
        int reserved = in.getUnsignedShort(start + 6);
        if (reserved != 0) {
            throw fail(in, "frame reserved bytes: " + reserved + " (expected: 0)", false, 0);
        }
        long requestId = in.getLong(start + 8);
        int deadline = in.getInt(start + 16);
        if (deadline < 0) {
            throw fail(in, "frame deadline: " + deadline + " ms (expected: >= 0)", false, 0);
        }
        boolean answerable = (flags & Frame.FLAG_REQUEST) != 0 && (flags & Frame.FLAG_TWO_WAY) != 0
                && (flags & Frame.FLAG_EVENT) == 0;
        long bodyLength = in.getUnsignedInt(start + Frame.LENGTH_OFFSET);
        boolean answer = (flags & (Frame.FLAG_REQUEST | Frame.FLAG_EVENT)) == 0;
        boolean skippable = consumer ? answer : answerable && bodyLength <= 2L * maxBodyLength;
        if (bodyLength > maxBodyLength && skippable) {
            in.skipBytes(Frame.HEADER_LENGTH);
            skipping = bodyLength;
            out.add(new Oversized(requestId, bodyLength, maxBodyLength));
            return;
        }
        if (bodyLength > maxBodyLength) {
            throw fail(in, "frame body length: " + bodyLength + " bytes (expected: <= payload " + maxBodyLength + ")",
                    answerable, requestId);
        }
        if (in.readableBytes() < Frame.HEADER_LENGTH + bodyLength) {
            return;
        }
        int status = in.getUnsignedByte(start + 4);
        byte serializationId = in.getByte(start + 5);
        in.skipBytes(Frame.HEADER_LENGTH);
        ByteBuf body = in.readRetainedSlice((int) bodyLength);
        out.add(new Frame(flags, status, serializationId, requestId, deadline, body));
    }

    private MalformedFrameException fail(ByteBuf in, String message, boolean answerable, long requestId) {
        failed = true;
        in.skipBytes(in.readableBytes());
        return new MalformedFrameException(message, answerable, requestId);
    }
}
