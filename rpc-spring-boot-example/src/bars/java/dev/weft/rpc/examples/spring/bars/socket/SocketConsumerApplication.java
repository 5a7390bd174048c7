package dev.weft.rpc.examples.spring.bars.socket;

import java.io.BufferedReader;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;

/**
 * The network floor of the bars' throughput: the consumer app's endpoint making the one round
 * trip a request needs on a plain blocking socket to {@link EchoServer}, with no RPC stack (no
 * serialization, no framing, no pool of I/O threads, no cluster). The caller's own thread writes
 * and then blocks in {@code read} until the answer arrives; a connection serves one request at a
 * time and goes back to the pool after it. No RPC stack can make this round trip for less, so
 * what this app serves bounds what any of them can serve on the same set-up.
 */
@SpringBootApplication
public class SocketConsumerApplication {

    public static void main(String[] args) {
        SpringApplication.run(SocketConsumerApplication.class, args);
    }

    @RestController
    public static class GreetingController implements Closeable {

        private final int port;
        private final ConcurrentLinkedQueue<Connection> idle = new ConcurrentLinkedQueue<>();

        public GreetingController(@Value("${bars.echo-port}") int port) {
            this.port = port;
        }

        @GetMapping("/greet")
        public String greet(@RequestParam(name = "name", defaultValue = "world") String name) {
            Connection connection = idle.poll();
            try {
                if (connection == null) {
                    connection = new Connection(new Socket(InetAddress.getLoopbackAddress(), port));
                }
                String answer = connection.roundTrip(name);
                idle.add(connection);
                return answer;
            } catch (IOException e) {
                if (connection != null) {
                    connection.close();
                }
                throw new UncheckedIOException("echo server on 127.0.0.1:" + port, e);
            }
        }

        @Override
        public void close() {
            for (Connection connection = idle.poll(); connection != null; connection = idle.poll()) {
                connection.close();
            }
        }
    }

    /** One connection to the echo server, used by one request at a time. */
    private static final class Connection {
        private final Socket socket;
        private final BufferedReader in;

        Connection(Socket socket) throws IOException {
            this.socket = socket;
            socket.setTcpNoDelay(true);
            this.in = new BufferedReader(new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8));
        }

        String roundTrip(String name) throws IOException {
            socket.getOutputStream().write((name + "\n").getBytes(StandardCharsets.UTF_8));
            String answer = in.readLine();
            if (answer == null) {
                throw new IOException("closed by the echo server");
            }
            return answer;
        }

        void close() {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing a socket that is already broken
            }
        }
    }
}
