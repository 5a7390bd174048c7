package dev.weft.rpc.examples.spring.bars.socket;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

/**
 * The provider of the bars' network floor: a blocking TCP server on 127.0.0.1 that answers each
 * line {@code name} with the line {@code hello name}, one thread per connection, no framework.
 * Argument: the port. Runs until the process is stopped.
 */
public final class EchoServer {

    private EchoServer() {
    }

    public static void main(String[] args) throws IOException {
        int port = Integer.parseInt(args[0]);
        try (ServerSocket server = new ServerSocket(port, 128, InetAddress.getLoopbackAddress())) {
            while (true) {
                Socket connection = server.accept();
                connection.setTcpNoDelay(true);
                Thread serving = new Thread(() -> serve(connection), "echo-" + connection.getPort());
                serving.setDaemon(true);
                serving.start();
            }
        }
    }

    private static void serve(Socket connection) {
        try (connection;
             BufferedReader in = new BufferedReader(new InputStreamReader(connection.getInputStream(), StandardCharsets.UTF_8))) {
            OutputStream out = connection.getOutputStream();
            for (String name = in.readLine(); name != null; name = in.readLine()) {
                out.write(("hello " + name + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        } catch (IOException closed) {
            // the consumer went away: this connection's thread ends
        }
    }
}
