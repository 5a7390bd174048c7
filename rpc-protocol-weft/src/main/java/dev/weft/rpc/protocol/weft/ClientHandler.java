package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.RpcException;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.handler.timeout.IdleState;
import io.netty.handler.timeout.IdleStateEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;

/**
 * The consumer's per-channel handler, on the event loop: hands each answer to its pending call
 * (which decodes it against the call's declared return type on the call's executor), answers and sends heartbeats, follows GOAWAY,
 * and fails every pending call the moment the channel closes.
 */
final class ClientHandler extends ChannelInboundHandlerAdapter {

    private static final Logger LOG = LoggerFactory.getLogger(ClientHandler.class);

    private final ChannelState state;
    private final ClientConnection connection;

    ClientHandler(ChannelState state, ClientConnection connection) {
        this.state = state;
        this.connection = connection;
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) {
        if (msg instanceof FrameDecoder.Oversized oversized) {
            failOversized(oversized);
            return;
        }
        Frame frame = (Frame) msg;
        boolean handedOver = false;
        try {
            if (frame.isEvent()) {
                onEvent(ctx, frame);
            } else if (!frame.isRequest()) {
                PendingCall call = state.take(frame.requestId());
                if (call == null) {
                    connection.lateAnswers().debug("weft client: answer " + frame.requestId() + " from " + state.remote()
                            + " arrived after its call ended (deadline passed or cancelled); dropped");
                    return;
                }
                // decoded on the call's executor (the waiting caller's thread for a sync call), not here
                call.answer(frame, connection.exceptions(), state.remote());
                handedOver = true;
            }
        } finally {
            if (!handedOver) {
                frame.release();
            }
        }
    }

    /** Only the call it answers fails; its body was discarded unread and the connection carries on. */
    private void failOversized(FrameDecoder.Oversized oversized) {
        PendingCall call = state.take(oversized.requestId());
        if (call == null) {
            connection.warnings().warn("weft client: answer " + oversized.requestId() + " from " + state.remote()
                    + " (" + oversized.bodyLength() + " bytes, over payload) arrived after its call ended; discarded");
            return;
        }
        call.fail(new RpcException(RpcException.SERIALIZATION_EXCEPTION, "answer of "
                + call.method().getName() + " from " + state.remote() + ": " + oversized.bodyLength()
                + " bytes (expected: <= payload " + oversized.maxBodyLength() + ", this consumer's limit; not read)"));
    }

    private void onEvent(ChannelHandlerContext ctx, Frame frame) {
        switch (frame.status()) {
            case Frame.EVENT_PING -> ctx.writeAndFlush(Frame.event(ctx.alloc(), Frame.EVENT_PONG, new byte[0]),
                    ctx.voidPromise());
            case Frame.EVENT_GOAWAY -> {
                String service = frame.body().toString(StandardCharsets.UTF_8);
                LOG.info("weft client: {} is going away{}", state.remote(), service.isEmpty() ? "" : " for " + service);
                if (service.isEmpty()) {
                    state.goAway();
                } else {
                    state.goAway(service);
                }
            }
            case Frame.EVENT_SERVING -> {
                String service = frame.body().toString(StandardCharsets.UTF_8);
                if (state.serving(service)) {
                    LOG.info("weft client: {} serves {} again", state.remote(), service);
                }
            }
            default -> {
                // PONG and unknown kinds: the read itself proves the peer alive.
            }
        }
    }

    @Override
    public void channelInactive(ChannelHandlerContext ctx) throws Exception {
        state.closed();
        connection.channelClosed(state);
        super.channelInactive(ctx);
    }

    @Override
    public void userEventTriggered(ChannelHandlerContext ctx, Object evt) throws Exception {
        if (evt instanceof IdleStateEvent idle) {
            if (idle.state() == IdleState.READER_IDLE) {
                connection.warnings().warn("weft client: closing the connection to " + state.remote()
                        + ": nothing heard for 3 heartbeats");
                ctx.close();
            } else {
                ctx.writeAndFlush(Frame.ping(ctx.alloc(), connection.ticker().read()), ctx.voidPromise());
            }
            return;
        }
        super.userEventTriggered(ctx, evt);
    }

    @Override
    public void exceptionCaught(ChannelHandlerContext ctx, Throwable cause) {
        if (cause instanceof IOException) {
            LOG.debug("weft client: connection to {} failed", state.remote(), cause);
        } else {
            connection.warnings().warn("weft client: closing the connection to " + state.remote() + " after " + cause);
        }
        ctx.close();
    }
}
