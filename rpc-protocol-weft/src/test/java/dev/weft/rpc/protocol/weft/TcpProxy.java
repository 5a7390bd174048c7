package dev.weft.rpc.protocol.weft;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * A TCP relay on 127.0.0.1 for fault tests: {@link #kill()} resets every relayed connection (the
 * provider "dies"), {@link #blackHole()} keeps them open but silently drops every byte.
 */
final class TcpProxy implements AutoCloseable {

    private final ServerSocket server;
    private final int targetPort;
    private final List<Socket> sockets = new CopyOnWriteArrayList<>();
    private final List<Thread> threads = new CopyOnWriteArrayList<>();
    private final java.util.concurrent.atomic.AtomicInteger accepted = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean blackHoled;
    /** While set, bytes towards the provider are kept, and written all at once by {@link #release()}. */
    private boolean held; // guarded by heldBytes
    private final java.io.ByteArrayOutputStream heldBytes = new java.io.ByteArrayOutputStream();
    private volatile OutputStream towardsProvider;

    TcpProxy(int targetPort) throws IOException {
        this.targetPort = targetPort;
        this.server = new ServerSocket(0, 50, InetAddress.getLoopbackAddress());
        start(this::acceptLoop);
    }

    int port() {
        return server.getLocalPort();
    }

    private void start(Runnable task) {
        Thread thread = new Thread(task, "tcp-proxy");
        thread.setDaemon(true);
        threads.add(thread);
        thread.start();
    }

    private void acceptLoop() {
        while (!server.isClosed()) {
            try {
                Socket client = server.accept();
                accepted.incrementAndGet();
                Socket upstream = new Socket();
                upstream.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort), 2000);
                sockets.add(client);
                sockets.add(upstream);
                towardsProvider = upstream.getOutputStream();
                start(() -> pump(client, upstream, true));
                start(() -> pump(upstream, client, false));
            } catch (IOException e) {
                return;
            }
        }
    }

    private void pump(Socket from, Socket to, boolean upstream) {
        byte[] buffer = new byte[8192];
        try (InputStream in = from.getInputStream(); OutputStream out = to.getOutputStream()) {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                if (blackHoled) {
                    continue;
                }
                synchronized (heldBytes) {
                    if (upstream && held) {
                        heldBytes.write(buffer, 0, n);
                        continue;
                    }
                    out.write(buffer, 0, n);
                    out.flush();
                }
            }
        } catch (IOException e) {
            // the other side closed or was reset
        }
    }

    /** Connections accepted so far. */
    int accepted() {
        return accepted.get();
    }

    /** Drops every byte from now on, in both directions, without closing anything. */
    void blackHole() {
        blackHoled = true;
    }

    /** Keeps every byte the consumer sends from now on, as a provider paused (SIGSTOP) would leave them unread. */
    void hold() {
        synchronized (heldBytes) {
            held = true;
        }
    }

    /** Writes what was kept in one write, as a resumed provider reads its backlog at once, and relays again. */
    void release() throws IOException {
        synchronized (heldBytes) {
            held = false;
            towardsProvider.write(heldBytes.toByteArray());
            towardsProvider.flush();
            heldBytes.reset();
        }
    }

    /** Resets every relayed connection at once (RST, like a crashed host). */
    void kill() {
        for (Socket socket : sockets) {
            try {
                socket.setSoLinger(true, 0);
                socket.close();
            } catch (IOException e) {
                // already closed
            }
        }
    }

    @Override
    public void close() throws IOException {
        server.close();
        kill();
        for (Thread thread : threads) {
            try {
                thread.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
