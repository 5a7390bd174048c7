package dev.weft.rpc.protocol.weft;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;

import java.util.HashMap;
import java.util.Map;

/**
 * What one provider connection may hold, enforced on its event loop (one instance per channel,
 * next to its {@link FrameDecoder}, which asks it before each frame):
 * <ul>
 *   <li><b>Answers it does not read.</b> No further request is decoded while the connection's
 *   unwritten answers are over Netty's write high water mark (64 KiB) or while
 *   {@code connection-calls} of its requests are decoded and not yet answered; its socket is not
 *   read meanwhile (the peer's sends block in TCP). So a peer that never reads holds at most
 *   {@code connection-calls} answers, and a peer that pipelines thousands of requests gets them
 *   run a bounded number at a time. Reading resumes when answers drain below the low mark and a
 *   call is answered. A peer that stays blocked is closed as silent after 3 heartbeats.</li>
 *   <li><b>Large bodies.</b> A request body over {@value #SMALL_BODY} bytes takes its length from
 *   the server's {@link RequestBudget} when its header arrives, and gives it back when its call is
 *   answered (or its connection closes); one that does not fit is answered NOT_PROCESSED and its
 *   body discarded as it arrives, each chunk released once read. The connection stays open: a
 *   consumer multiplexes its calls over it, and closing it would fail calls in flight that have
 *   nothing to do with the refused one, leaving their callers unsure whether they ran, while the
 *   refused call is safe to retry elsewhere. Discarding holds no memory, and a discarded body must
 *   keep the upload rate like a kept one.</li>
 *   <li><b>Uploads.</b> A request body, kept or discarded, must arrive at {@code min-upload-rate}
 *   bytes per second or faster over any {@link UploadRate#WINDOW} of it (its first
 *   {@link UploadRate#GRACE} not counted); the decoder checks every {@link UploadRate#CHECK_PERIOD}
 *   and a slower body closes the connection. The window slides: a peer that sends most of a body
 *   at once and then trickles a byte now and then, or stops, is closed within the window and a
 *   period of its last burst, whatever it sent before; without that it would hold its partial
 *   frame, and its share of the budget, for ever, each byte resetting the idle timer.</li>
 * </ul>
 * Not sharable; confined to the channel's event loop.
 */
final class ConnectionLimits extends ChannelDuplexHandler {

    /** Bodies up to this size are bounded by {@code connection-calls} per connection, not by the budget. */
    static final int SMALL_BODY = 64 * 1024;

    private final int maxCalls;
    private final RequestBudget budget;
    private final long minUploadRate;
    private final PeerWarnings warnings;
    /** Two-way requests decoded and not answered yet: id to the budget bytes they hold (0 for a small body). */
    private final Map<Long, Long> unanswered = new HashMap<>();
    private ChannelHandlerContext ctx;
    private FrameDecoder decoder;
    private boolean paused;

    ConnectionLimits(int maxCalls, RequestBudget budget, long minUploadRate, PeerWarnings warnings) {
        this.maxCalls = maxCalls;
        this.budget = budget;
        this.minUploadRate = minUploadRate;
        this.warnings = warnings;
    }

    @Override
    public void handlerAdded(ChannelHandlerContext ctx) {
        this.ctx = ctx;
        this.decoder = ctx.pipeline().get(FrameDecoder.class);
    }

    /** Whether the decoder may decode another frame now; when not, reading stops until an answer leaves. */
    boolean mayDecode() {
        if (ctx.channel().isWritable() && unanswered.size() < maxCalls) {
            return true;
        }
        if (!paused) {
            paused = true;
            ctx.channel().config().setAutoRead(false);
        }
        return false;
    }

    /**
     * The header of a request with a body of {@code bodyLength} bytes arrived: false when the body
     * is large and the budget has no room for it (nothing is reserved then); else a large body's
     * length is reserved, for the decoder to hand over ({@link #decoded}) or {@link #release}.
     */
    boolean admit(long bodyLength) {
        return bodyLength <= SMALL_BODY || budget.tryReserve(bodyLength);
    }

    /** Budget bytes of a frame that is not a tracked two-way call (one-way, or never completed). */
    void release(long bytes) {
        if (bytes > 0) {
            budget.release(bytes);
        }
    }

    /** A two-way request is passed on to be run, holding {@code budgetBytes}: tracked until its answer is written. */
    void decoded(long requestId, long budgetBytes) {
        Long previous = unanswered.put(requestId, budgetBytes);
        if (previous != null) {
            release(previous); // a peer reusing an id in flight: the older call's bytes go now
        }
    }

    long minUploadRate() {
        return minUploadRate;
    }

    int maxCalls() {
        return maxCalls;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        if (msg instanceof FrameDecoder.OverBudget refused) {
            String reason = "request body: " + refused.bodyLength() + " bytes (expected: room in request-budget "
                    + budget.limit() + " bytes, " + budget.used() + " in use by large requests in progress; not run)";
            warnings.warn(PeerWarnings.Kind.OVER_BUDGET, "weft server: request " + refused.requestId() + " from "
                    + ctx.channel().remoteAddress() + " refused: " + reason);
            if (refused.twoWay()) {
                ctx.writeAndFlush(ResponseCodec.status(ctx.alloc(), refused.requestId(), Status.NOT_PROCESSED, reason),
                        ctx.voidPromise());
            }
            return;
        }
        if (msg instanceof Frame frame && frame.isEvent() && frame.status() == Frame.EVENT_CANCEL) {
            answered(frame.requestId());
        }
        super.channelRead(ctx, msg);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof ByteBuf frame && isAnswer(frame)) {
            answered(frame.getLong(frame.readerIndex() + 8));
        }
        super.write(ctx, msg, promise);
    }

    @Override
    public void channelWritabilityChanged(ChannelHandlerContext ctx) throws Exception {
        resumeIfAllowed();
        super.channelWritabilityChanged(ctx);
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        unanswered.values().forEach(this::release);
        unanswered.clear();
        super.channelInactive(ctx);
    }

    private static boolean isAnswer(ByteBuf frame) {
        int start = frame.readerIndex();
        return frame.readableBytes() >= Frame.HEADER_LENGTH && frame.getUnsignedShort(start) == Frame.MAGIC
                && (frame.getUnsignedByte(start + 3) & (Frame.FLAG_REQUEST | Frame.FLAG_EVENT)) == 0;
    }

    private void answered(long requestId) {
        Long held = unanswered.remove(requestId);
        if (held != null) {
            release(held);
            resumeIfAllowed();
        }
    }

    /** Decodes what is buffered and reads again, once answers have drained and calls finished. */
    private void resumeIfAllowed() {
        if (!paused || !ctx.channel().isWritable() || unanswered.size() >= maxCalls || !ctx.channel().isActive()) {
            return;
        }
        paused = false;
        ctx.channel().config().setAutoRead(true);
        // frames already buffered in the decoder are decoded now, not when more bytes arrive
        ctx.executor().execute(() -> decoder.resume(Unpooled.EMPTY_BUFFER));
    }
}
