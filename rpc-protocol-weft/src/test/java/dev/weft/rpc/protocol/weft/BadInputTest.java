package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.protocol.Exporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad bytes on the provider's port close that connection; everyone else keeps being served. */
class BadInputTest {

    private static final int HEARTBEAT = 200;

    private Loopback loopback;
    private Exporter<Shapes> exporter;
    private Shapes shapes;

    @BeforeEach
    void setUp() {
        loopback = new Loopback();
        exporter = loopback.export(Shapes.class, new ShapesImpl(), "heartbeat=" + HEARTBEAT);
        shapes = Loopback.proxy(Shapes.class, loopback.refer(Shapes.class, exporter, "heartbeat=" + HEARTBEAT));
        assertThat(shapes.echo("before")).isEqualTo("before");
    }

    @AfterEach
    void tearDown() {
        assertThat(shapes.echo("after")).isEqualTo("after");
        loopback.close();
    }

    @AfterAll
    static void noLeaks() {
        LeakCounter.assertNoLeaks();
    }

    private Socket connect() throws IOException {
        Socket socket = new Socket(InetAddress.getLoopbackAddress(), exporter.getInvoker().getUrl().getPort());
        socket.setSoTimeout(10_000);
        return socket;
    }

    /** Reads until the server closes the connection; returns the milliseconds that took. */
    private static long millisUntilClosed(InputStream in) throws IOException {
        long start = System.nanoTime();
        try {
            while (in.read() >= 0) {
                // drain whatever the server says before closing
            }
        } catch (java.net.SocketException reset) {
            // a reset is a close too
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @Test
    void randomJunk_closesTheConnection() throws IOException {
        byte[] junk = new byte[4096];
        new Random(7).nextBytes(junk);
        try (Socket socket = connect()) {
            socket.getOutputStream().write(junk);
            assertThat(millisUntilClosed(socket.getInputStream())).isLessThan(5000);
        }
    }

    @Test
    void httpRequestOnTheRpcPort_closesTheConnection() throws IOException {
        try (Socket socket = connect()) {
            socket.getOutputStream().write("GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            assertThat(millisUntilClosed(socket.getInputStream())).isLessThan(5000);
        }
    }

    @Test
    void hugeLength_isAnsweredPayloadTooLarge_thenClosed() throws IOException {
        byte[] header = com.google.common.io.BaseEncoding.base16().lowerCase().decode(
                "5746" + "01" + "c0" + "00" + "01" + "0000" + "0000000000000005" + "00000000" + "7fffffff");
        try (Socket socket = connect()) {
            socket.getOutputStream().write(header);
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] answer = new byte[Frame.HEADER_LENGTH];
            in.readFully(answer);
            assertThat(answer[4]).isEqualTo((byte) Status.PAYLOAD_TOO_LARGE);
            assertThat(answer[15]).isEqualTo((byte) 5);
            assertThat(millisUntilClosed(in)).isLessThan(5000);
        }
    }

    @Test
    void halfAFrameThenSilence_isClosedAfterThreeHeartbeats() throws IOException {
        try (Socket socket = connect()) {
            socket.getOutputStream().write(new byte[] {0x57, 0x46, 0x01, (byte) 0xc0, 0, 1});
            long millis = millisUntilClosed(socket.getInputStream());
            assertThat(millis).isGreaterThanOrEqualTo(2L * HEARTBEAT).isLessThan(8000);
        }
    }
}
