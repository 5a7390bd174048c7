package dev.weft.rpc.it.zk;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A TCP forwarder on 127.0.0.1 that counts the connections it accepts: each one is relayed to
 * {@code target} (also on 127.0.0.1), byte for byte, in both directions. Lets a test count the
 * connections a consumer opens to a provider address. Closing it closes every relayed socket.
 */
final class CountingTcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int target;
    private final AtomicInteger accepted = new AtomicInteger();
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final Thread acceptor;
    private volatile boolean closed;

    private CountingTcpProxy(int target) throws IOException {
        this.target = target;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        this.acceptor = new Thread(this::acceptLoop, "proxy-accept-" + server.getLocalPort());
        acceptor.setDaemon(true);
        acceptor.start();
    }

    /** A started proxy to port {@code target} of 127.0.0.1. */
    static CountingTcpProxy to(int target) throws IOException {
        return new CountingTcpProxy(target);
    }

    int port() {
        return server.getLocalPort();
    }

    /** Connections accepted so far. */
    int accepted() {
        return accepted.get();
    }

    private void acceptLoop() {
        while (!closed) {
            try {
                Socket inbound = server.accept();
                accepted.incrementAndGet();
                Socket outbound = new Socket(InetAddress.getLoopbackAddress(), target);
                sockets.add(inbound);
                sockets.add(outbound);
                relay(inbound, outbound);
                relay(outbound, inbound);
            } catch (IOException e) {
                if (!closed) {
                    throw new IllegalStateException("proxy on " + port() + " failed", e);
                }
            }
        }
    }

    private void relay(Socket from, Socket to) {
        Thread pump = new Thread(() -> {
            try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
                in.transferTo(out);
            } catch (IOException e) {
                // the other side closed: close both below
            } finally {
                closeQuietly(from);
                closeQuietly(to);
            }
        }, "proxy-relay-" + port());
        pump.setDaemon(true);
        pump.start();
    }

    private static void closeQuietly(Socket socket) {
        try {
            socket.close();
        } catch (IOException e) {
            // already closed
        }
    }

    @Override
    public void close() throws IOException {
        closed = true;
        server.close();
        sockets.forEach(CountingTcpProxy::closeQuietly);
    }
}
