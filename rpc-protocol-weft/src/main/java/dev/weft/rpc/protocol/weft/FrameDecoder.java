package dev.weft.rpc.protocol.weft;

import com.google.common.base.Ticker;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelHandlerContext;
import io.netty.handler.codec.ByteToMessageDecoder;

import java.util.List;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

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
 * <p>On a provider with {@link ConnectionLimits}, every request body in progress, kept or
 * discarded, is checked every {@link UploadRate#CHECK_PERIOD} against {@code min-upload-rate}
 * over a sliding window ({@link UploadRate}), whether bytes arrive or not; a body that falls behind
 * closes its connection.
 *
 * <p>Not sharable: one instance per channel (it keeps partial input).
 */
final class FrameDecoder extends ByteToMessageDecoder {

    private final int maxBodyLength;
    private final boolean consumer;
    /** A provider's per-connection limits, or null (no limits beyond {@code payload}). */
    private final ConnectionLimits limits;
    /** The rate of the body in progress, or null (no limits). */
    private final UploadRate upload;
    /** Checks {@link #upload} while a body is in progress; null otherwise. */
    private ScheduledFuture<?> uploadCheck;
    /** The body length of the frame in progress, admitted or discarded. */
    private long uploadLength;
    private ChannelHandlerContext context;
    private boolean failed;
    /** Body bytes of an oversized frame still to discard. */
    private long skipping;
    /** The header of the frame in progress was admitted by {@link #limits}. */
    private boolean admitted;
    /** Budget bytes the frame in progress holds. */
    private long heldBudget;

    private FrameDecoder(int maxBodyLength, boolean consumer, ConnectionLimits limits, Ticker ticker) {
        this.maxBodyLength = maxBodyLength;
        this.consumer = consumer;
        this.limits = limits;
        this.upload = limits == null ? null : new UploadRate(limits.minUploadRate(), ticker);
    }

    /** A provider's decoder with no limits but {@code payload}: skips two-way requests of up to twice {@code maxBodyLength}. */
    static FrameDecoder forProvider(int maxBodyLength) {
        return new FrameDecoder(maxBodyLength, false, null, Ticker.systemTicker());
    }

    /**
     * A provider's decoder that asks {@code limits} (the handler placed after it) before each
     * frame, for the budget of each large body, and whether an upload is fast enough.
     */
    static FrameDecoder forProvider(int maxBodyLength, ConnectionLimits limits, Ticker ticker) {
        return new FrameDecoder(maxBodyLength, false, limits, ticker);
    }

    /** A consumer's decoder: skips oversized answers; see the class comment. */
    static FrameDecoder forConsumer(int maxBodyLength) {
        return new FrameDecoder(maxBodyLength, true, null, Ticker.systemTicker());
    }

    /**
     * A request of {@code bodyLength} bytes refused because the server's budget for large bodies
     * is full; its body is discarded as it arrives.
     */
    record OverBudget(long requestId, boolean twoWay, long bodyLength) {
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) throws Exception {
        this.context = ctx;
        super.handlerAdded(ctx);
    }

    /** Decodes the frames already buffered (reading resumed after a pause); on the event loop. */
    void resume(ByteBuf empty) {
        if (context == null || context.isRemoved()) {
            return;
        }
        try {
            channelRead(context, empty);
            channelReadComplete(context);
        } catch (Exception e) {
            context.fireExceptionCaught(e);
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        releaseReserved();
        stopUploadCheck();
        super.channelInactive(ctx);
    }

    @Override
    protected void handlerRemoved0(ChannelHandlerContext ctx) {
        stopUploadCheck();
    }

    /** A body of {@code bodyLength} bytes starts arriving: checked against the upload rate from now on. */
    private void startUpload(long bodyLength) {
        if (upload != null) {
            uploadLength = bodyLength;
            upload.start();
        }
    }

    /** The body in progress is not complete yet: checks its rate every period until it is. */
    private void awaitUpload() {
        if (upload != null && uploadCheck == null) {
            long period = UploadRate.CHECK_PERIOD.toNanos();
            uploadCheck = context.executor().scheduleAtFixedRate(this::checkUpload, period, period, TimeUnit.NANOSECONDS);
        }
    }

    private void stopUploadCheck() {
        if (uploadCheck != null) {
            uploadCheck.cancel(false);
            uploadCheck = null;
        }
    }

    /** On the event loop, every period while a body is in progress: closes the connection when it is too slow. */
    private void checkUpload() {
        boolean inProgress = !failed && (skipping > 0 || admitted);
        if (!inProgress) {
            stopUploadCheck();
            return;
        }
        ByteBuf in = internalBuffer();
        long received = skipping > 0 ? uploadLength - skipping : in.readableBytes() - Frame.HEADER_LENGTH;
        if (upload.fastEnough(received)) {
            return;
        }
        MalformedFrameException slow = fail(in, "request body: " + received + " of " + uploadLength + " bytes arrived, "
                + upload.lastWindow() + " (expected: at least min-upload-rate " + limits.minUploadRate()
                + " bytes/s over the last " + UploadRate.WINDOW.toSeconds() + " s, its first "
                + UploadRate.GRACE.toSeconds() + " s not counted)", false, 0, PeerWarnings.Kind.OVER_BUDGET);
        releaseReserved();
        stopUploadCheck();
        context.fireExceptionCaught(slow);
    }

    private void releaseReserved() {
        if (limits != null) {
            limits.release(heldBudget);
        }
        heldBudget = 0;
        admitted = false;
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
                awaitUpload();
                return;
            }
            stopUploadCheck();
        }
        if (in.readableBytes() < Frame.HEADER_LENGTH || limits != null && !admitted && !limits.mayDecode()) {
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
            startUpload(bodyLength);
            out.add(new Oversized(requestId, bodyLength, maxBodyLength));
            return;
        }
        if (bodyLength > maxBodyLength) {
            throw fail(in, "frame body length: " + bodyLength + " bytes (expected: <= payload " + maxBodyLength + ")",
                    answerable, requestId);
        }
        boolean request = (flags & Frame.FLAG_REQUEST) != 0 && (flags & Frame.FLAG_EVENT) == 0;
        if (limits != null && request && !admitted) {
            boolean twoWay = (flags & Frame.FLAG_TWO_WAY) != 0;
            if (!limits.admit(bodyLength)) {
                in.skipBytes(Frame.HEADER_LENGTH);
                skipping = bodyLength;
                startUpload(bodyLength);
                out.add(new OverBudget(requestId, twoWay, bodyLength));
                return;
            }
            admitted = true;
            startUpload(bodyLength);
            heldBudget = bodyLength > ConnectionLimits.SMALL_BODY ? bodyLength : 0;
        }
        if (in.readableBytes() < Frame.HEADER_LENGTH + bodyLength) {
            if (admitted) {
                awaitUpload();
            }
            return;
        }
        stopUploadCheck();
        int status = in.getUnsignedByte(start + 4);
        byte serializationId = in.getByte(start + 5);
        in.skipBytes(Frame.HEADER_LENGTH);
        ByteBuf body = in.readRetainedSlice((int) bodyLength);
        if (admitted) {
            if ((flags & Frame.FLAG_TWO_WAY) != 0) {
                limits.decoded(requestId, heldBudget); // released when it is answered
            } else {
                limits.release(heldBudget);
            }
            heldBudget = 0;
            admitted = false;
        }
        out.add(new Frame(flags, status, serializationId, requestId, deadline, body));
    }

    private MalformedFrameException fail(ByteBuf in, String message, boolean answerable, long requestId) {
        return fail(in, message, answerable, requestId, PeerWarnings.Kind.MALFORMED_FRAME);
    }

    private MalformedFrameException fail(ByteBuf in, String message, boolean answerable, long requestId,
                                         PeerWarnings.Kind kind) {
        failed = true;
        in.skipBytes(in.readableBytes());
        return new MalformedFrameException(message, answerable, requestId, kind);
    }
}
