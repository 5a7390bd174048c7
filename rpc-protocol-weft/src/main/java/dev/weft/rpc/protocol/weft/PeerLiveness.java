package dev.weft.rpc.protocol.weft;

import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;

/**
 * A consumer channel counts as available only once its provider has answered on it: a TCP
 * handshake proves nothing (the kernel of a stopped or hung process completes it from its
 * listening backlog). On connect it sends a PING; the first frame read from the peer (the PONG,
 * or any answer) marks the channel's state as heard from ({@link ChannelState#heard()}). Until
 * then a cluster routes around the provider, while a call that asks for this connection
 * explicitly may still use it. Not sharable; one per channel, before the {@link ClientHandler}.
 */
final class PeerLiveness extends ChannelInboundHandlerAdapter {

    private final ChannelState state;

    PeerLiveness(ChannelState state) {
        this.state = state;
    }

    @Override
    public void channelActive(ChannelHandlerContext ctx) throws Exception {
        ctx.writeAndFlush(Frame.event(ctx.alloc(), Frame.EVENT_PING, new byte[0]), ctx.voidPromise());
        super.channelActive(ctx);
    }

    @Override
    public void channelRead(ChannelHandlerContext ctx, Object msg) throws Exception {
        state.heard();
        super.channelRead(ctx, msg);
    }
}
