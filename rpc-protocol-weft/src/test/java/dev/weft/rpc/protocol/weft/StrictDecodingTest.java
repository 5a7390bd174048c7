package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.protocol.Exporter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Requests written byte by byte on a raw socket: arguments that are not exactly what the method
 * declares are refused with BAD_REQUEST and a clear reason, and the method does not run.
 */
class StrictDecodingTest {

    private static Loopback loopback;
    private static ValuesImpl impl;
    private static int port;

    @BeforeAll
    static void setUp() {
        loopback = new Loopback();
        impl = new ValuesImpl();
        Exporter<Values> exporter = loopback.export(Values.class, impl, "");
        port = exporter.getInvoker().getUrl().getPort();
    }

    @AfterAll
    static void tearDown() {
        loopback.close();
        LeakCounter.assertNoLeaks();
    }

    /** The status byte and reason of the answer to one request whose arguments are {@code json}. */
    private static String call(String method, String descriptor, String json) throws IOException {
        ByteBuf frame = Frame.start(ByteBufAllocator.DEFAULT, Frame.FLAG_REQUEST | Frame.FLAG_TWO_WAY, 0,
                JsonSerialization.ID, 9, 0);
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
            socket.setSoTimeout(10_000);
            WireStrings.write(frame, Values.class.getName());
            WireStrings.write(frame, method);
            WireStrings.write(frame, descriptor);
            frame.writeShort(0);
            frame.writeCharSequence(json, StandardCharsets.UTF_8);
            Frame.finish(frame);
            socket.getOutputStream().write(ByteBufUtil.getBytes(frame));
            DataInputStream in = new DataInputStream(socket.getInputStream());
            byte[] header = new byte[Frame.HEADER_LENGTH];
            in.readFully(header);
            return Status.name(header[4]) + ": " + readBody(in, header);
        } finally {
            frame.release();
        }
    }

    private static String readBody(DataInputStream in, byte[] header) throws IOException {
        int length = ((header[20] & 0xff) << 24) | ((header[21] & 0xff) << 16) | ((header[22] & 0xff) << 8) | (header[23] & 0xff);
        byte[] body = new byte[length];
        in.readFully(body);
        return new String(body, StandardCharsets.UTF_8);
    }

    @Test
    void wellFormedArguments_areAnsweredOk() throws IOException {
        assertThat(call("add", "int,int", "1 2")).isEqualTo("OK: 3");
    }

    @Test
    void anExtraArgument_isRefused() throws IOException {
        assertThat(call("add", "int,int", "1 2 3"))
                .startsWith("BAD_REQUEST: ")
                .contains("add(int,int)")
                .contains("VALUE_NUMBER_INT at byte 4, after the last value (expected: the end of the input)");
    }

    @Test
    void trailingBytes_areRefused() throws IOException {
        assertThat(call("add", "int,int", "1 2 ]")).startsWith("BAD_REQUEST: ").contains("add(int,int)");
    }

    @Test
    void aStringForAnInt_isRefused() throws IOException {
        assertThat(call("add", "int,int", "\"1\" 2")).startsWith("BAD_REQUEST: ").contains("add(int,int)")
                .containsIgnoringCase("coercion");
    }

    @Test
    void aFractionForAnInt_isRefused() throws IOException {
        assertThat(call("add", "int,int", "1.5 2")).startsWith("BAD_REQUEST: ").contains("add(int,int)");
    }

    @Test
    void aDuplicateKey_isRefused() throws IOException {
        assertThat(call("move", Shapes.Point.class.getName(), "{\"x\":1,\"x\":5,\"y\":2}"))
                .startsWith("BAD_REQUEST: ").contains("Duplicate field 'x'");
    }

    @Test
    void aHugeExponentForABigDecimal_isRefused() throws IOException {
        int before = impl.calls.get();
        assertThat(call("decimal", "java.math.BigDecimal", "1e999999999"))
                .startsWith("BAD_REQUEST: ").contains("exponent 999999999 (expected: a BigDecimal whose scale is within +-1000)");
        assertThat(call("decimal", "java.math.BigDecimal", "-1E-999999999"))
                .startsWith("BAD_REQUEST: ").contains("exponent -999999999");
        assertThat(call("decimal", "java.math.BigDecimal", "1.5e3")).isEqualTo("OK: 1.5E+3");
        assertThat(impl.calls.get()).as("only the valid call ran").isEqualTo(before + 1);
    }
}
