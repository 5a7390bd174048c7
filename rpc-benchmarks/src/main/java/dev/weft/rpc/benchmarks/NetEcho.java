package dev.weft.rpc.benchmarks;

import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.buffer.ByteBuf;
import io.netty.channel.Channel;
import io.netty.channel.ChannelHandlerContext;
import io.netty.channel.ChannelInboundHandlerAdapter;
import io.netty.channel.ChannelInitializer;
import io.netty.channel.ChannelOption;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;
import io.netty.handler.codec.LengthFieldBasedFrameDecoder;
import io.netty.handler.flush.FlushConsolidationHandler;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The floor: a raw Netty echo with a 4-byte length and an 8-byte id in front of the same string,
 * no framework, no serialization. Callers share one connection and match answers by id.
 */
final class NetEcho {

    private NetEcho() {
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static LengthFieldBasedFrameDecoder frames() {
        return new LengthFieldBasedFrameDecoder(1 << 20, 0, 4, 0, 4);
    }

    static int serve() {
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        Channel server = new ServerBootstrap().group(group).channel(NioServerSocketChannel.class)
                .childOption(ChannelOption.TCP_NODELAY, true)
                .childHandler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new FlushConsolidationHandler(256, true)).addLast(frames())
                                .addLast(new ChannelInboundHandlerAdapter() {
                                    @Override
                                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                        ByteBuf in = (ByteBuf) msg;
                                        ByteBuf out = ctx.alloc().buffer(4 + in.readableBytes());
                                        out.writeInt(in.readableBytes()).writeBytes(in);
                                        in.release();
                                        ctx.writeAndFlush(out, ctx.voidPromise());
                                    }
                                });
                    }
                })
                .bind("127.0.0.1", 0).syncUninterruptibly().channel();
        return ((java.net.InetSocketAddress) server.localAddress()).getPort();
    }

    static Greeter connect(int port) {
        Map<Long, CompletableFuture<String>> pending = new ConcurrentHashMap<>();
        AtomicLong ids = new AtomicLong();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(NioIoHandler.newFactory());
        Channel channel = new Bootstrap().group(group).channel(NioSocketChannel.class)
                .option(ChannelOption.TCP_NODELAY, true)
                .handler(new ChannelInitializer<SocketChannel>() {
                    @Override
                    protected void initChannel(SocketChannel ch) {
                        ch.pipeline().addLast(new FlushConsolidationHandler(256, true)).addLast(frames())
                                .addLast(new ChannelInboundHandlerAdapter() {
                                    @Override
                                    public void channelRead(ChannelHandlerContext ctx, Object msg) {
                                        ByteBuf in = (ByteBuf) msg;
                                        long id = in.readLong();
                                        String text = in.toString(StandardCharsets.UTF_8);
                                        in.release();
                                        pending.remove(id).complete(text);
                                    }
                                });
                    }
                })
                .connect("127.0.0.1", port).syncUninterruptibly().channel();
        return name -> {
            long id = ids.incrementAndGet();
            CompletableFuture<String> answer = new CompletableFuture<>();
            pending.put(id, answer);
            byte[] bytes = name.getBytes(StandardCharsets.UTF_8);
            ByteBuf out = channel.alloc().buffer(12 + bytes.length);
            out.writeInt(8 + bytes.length).writeLong(id).writeBytes(bytes);
            channel.writeAndFlush(out, channel.voidPromise());
            return answer.join();
        };
    }
}
