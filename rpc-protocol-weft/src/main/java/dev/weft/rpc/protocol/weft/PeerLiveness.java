package dev.weft.rpc.protocol.weft;

import com.google.common.base.Ticker;
import io.netty.buffer.ByteBuf;
import io.netty.channel.ChannelDuplexHandler;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelPromise;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

/**
 * Whether the provider answers on a consumer channel, kept in its {@link ChannelState}. Not
 * sharable; one per channel, before the {@link ClientHandler}; its state is confined to the event
 * loop, and the outcome is published as two volatile flags that {@code isAvailable} reads.
 *
 * <ul>
 *   <li><b>A new channel</b> counts only once the provider has answered on it
 *       ({@link ChannelState#heard()}): a TCP handshake proves nothing, since the kernel of a stopped
 *       or hung process completes it from its listening backlog. On connect it sends a PING.</li>
 *   <li><b>An open channel</b> turns unresponsive ({@link ChannelState#unresponsive(boolean)}) when
 *       something that needs an answer (a request, a PING) has been outstanding for the liveness
 *       bound {@code L} with no byte received since: then it sends a PING, which a running provider
 *       answers from its event loop however busy its business threads are, and when that PING too is
 *       unanswered for {@code L} the channel is unresponsive. Any byte read makes it responsive
 *       again. So a provider stopped with SIGSTOP stops receiving calls within about {@code 2 L} of
 *       the first call it leaves unanswered, not after 3 missed heartbeats; a provider that answers
 *       slowly but runs is never marked (its PONG arrives). {@code L} is
 *       {@link ClientSettings#livenessMillis()}.</li>
 * </ul>
 *
 * <p>Cost on the call path: a write reads one header byte and, only for the first write after a
 * read, the ticker; a read batch resets two fields. At most one timer per channel is armed, and only
 * while something is outstanding.
 */
final class PeerLiveness extends ChannelDuplexHandler {

    private static final Logger LOG = LoggerFactory.getLogger(PeerLiveness.class);
    private static final long NONE = Long.MIN_VALUE;

    private final ChannelState state;
    private final Ticker ticker;
    private final long boundNanos;
    private final ClientConnection connection;
    /** When the first frame needing an answer was written since the last read; NONE when nothing is awaited. */
    private long awaitingSince = NONE;
    /** When the probing PING was sent; NONE when none is outstanding. */
    private long probeSentAt = NONE;
    private boolean checkArmed;

    PeerLiveness(ChannelState state, Ticker ticker, long boundMillis, ClientConnection connection) {
        this.state = state;
        this.ticker = ticker;
        this.boundNanos = TimeUnit.MILLISECONDS.toNanos(boundMillis);
        this.connection = connection;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.writeAndFlush(Frame.ping(ctx.alloc(), ticker.read()), ctx.voidPromise());
        awaiting(ctx);
        super.channelActive(ctx);
    }

    @Override
    public void write(ChannelHandlerContext ctx, Object msg, ChannelPromise promise) throws Exception {
        if (msg instanceof ByteBuf frame && needsAnswer(frame)) {
            awaiting(ctx);
        }
        super.write(ctx, msg, promise);
    }

    /** A request, or a PING (a CANCEL or a PONG needs none). */
    private static boolean needsAnswer(ByteBuf frame) {
        if (frame.readableBytes() < Frame.HEADER_LENGTH) {
            return false;
        }
        int flags = frame.getUnsignedByte(frame.readerIndex() + 3);
        return (flags & Frame.FLAG_REQUEST) != 0
                || (flags & Frame.FLAG_EVENT) != 0 && frame.getUnsignedByte(frame.readerIndex() + 4) == Frame.EVENT_PING;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        state.heard();
        super.channelRead(ctx, msg);
    }

    /** Bytes arrived (a whole frame or part of one): the provider runs. */
    @Override
    public void channelReadComplete(ChannelHandlerContext ctx) throws Exception {
        awaitingSince = NONE;
        probeSentAt = NONE;
        if (state.isUnresponsive()) {
            state.unresponsive(false);
            LOG.info("weft client: {} answers again; available", state.remote());
        }
        super.channelReadComplete(ctx);
    }

    private void awaiting(ChannelHandlerContext ctx) {
        if (awaitingSince != NONE) {
            return;
        }
        awaitingSince = ticker.read();
        if (!checkArmed) {
            checkArmed = true;
            ctx.executor().schedule(() -> check(ctx), boundNanos, TimeUnit.NANOSECONDS);
        }
    }

    private void check(ChannelHandlerContext ctx) {
        checkArmed = false;
        if (awaitingSince == NONE || !ctx.channel().isActive() || state.isUnresponsive()) {
            return; // heard since, closed, or already marked (a read clears it)
        }
        long now = ticker.read();
        long next;
        if (probeSentAt == NONE) {
            long silent = now - awaitingSince;
            if (silent < boundNanos) {
                next = boundNanos - silent; // the awaited frame was written after this check was armed
            } else {
                probeSentAt = now;
                ctx.writeAndFlush(Frame.ping(ctx.alloc(), now), ctx.voidPromise());
                next = boundNanos;
            }
        } else if (now - probeSentAt >= boundNanos) {
            state.unresponsive(true);
            connection.warnings().warn("weft client: " + state.remote() + " has not answered for "
                    + TimeUnit.NANOSECONDS.toMillis(now - awaitingSince) + " ms with calls or a PING outstanding (liveness bound "
                    + TimeUnit.NANOSECONDS.toMillis(boundNanos) + " ms, from heartbeat): unavailable until it answers");
            return;
        } else {
            next = boundNanos - (now - probeSentAt);
        }
        checkArmed = true;
        ctx.executor().schedule(() -> check(ctx), next, TimeUnit.NANOSECONDS);
    }
}
