package dev.weft.rpc.protocol.weft;

import io.netty.channel.IoHandlerFactory;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.epoll.EpollServerSocketChannel;
import io.netty.channel.epoll.EpollSocketChannel;
import io.netty.channel.nio.NioIoHandler;
import io.netty.channel.socket.ServerSocketChannel;
import io.netty.channel.socket.SocketChannel;
import io.netty.channel.socket.nio.NioServerSocketChannel;
import io.netty.channel.socket.nio.NioSocketChannel;

/**
 * The Netty transport of this protocol's event loops and channels: Netty's native epoll
 * transport where Netty finds it usable (Linux on x86_64 or aarch64; this module brings the
 * native library), else the JDK's NIO. Epoll wakes an event loop and moves a small frame with
 * fewer system calls than NIO, which shortens each of the thread hand-offs a call makes.
 *
 * <p>Netty's own switch {@code -Dio.netty.transport.noNative=true} makes epoll unavailable, so
 * this protocol then uses NIO. Event loop groups and channels must come from the same constant.
 */
enum Transport {

    EPOLL {
        @Override
        IoHandlerFactory ioHandlerFactory() {
            return EpollIoHandler.newFactory();
        }

        @Override
        Class<? extends SocketChannel> socketChannel() {
            return EpollSocketChannel.class;
        }

        @Override
        Class<? extends ServerSocketChannel> serverSocketChannel() {
            return EpollServerSocketChannel.class;
        }
    },

    NIO {
        @Override
        IoHandlerFactory ioHandlerFactory() {
            return NioIoHandler.newFactory();
        }

        @Override
        Class<? extends SocketChannel> socketChannel() {
            return NioSocketChannel.class;
        }

        @Override
        Class<? extends ServerSocketChannel> serverSocketChannel() {
            return NioServerSocketChannel.class;
        }
    };

    /** Epoll when Netty reports it available, else NIO. */
    static Transport best() {
        return Epoll.isAvailable() ? EPOLL : NIO;
    }

    abstract IoHandlerFactory ioHandlerFactory();

    abstract Class<? extends SocketChannel> socketChannel();

    abstract Class<? extends ServerSocketChannel> serverSocketChannel();
}
