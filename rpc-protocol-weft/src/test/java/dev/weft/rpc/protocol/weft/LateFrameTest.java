package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.protocol.Exporter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider places each request's deadline on its own clock from the consumer's clock reading the
 * request carries, so a request read long after it was sent is not run even when no CANCEL ever
 * follows it. A raw-socket consumer with a clock of its own origin plays the stopped provider's
 * backlog: a frame stamped as sent 5 s ago with 1 s left.
 */
class LateFrameTest {

    /** The raw consumer's clock: the JVM's, shifted to an origin of its own. */
    private static final long ORIGIN = TimeUnit.HOURS.toNanos(7);

    private final Loopback provider = new Loopback();
    private final ShapesImpl impl = new ShapesImpl();

    @AfterEach
    void tearDown() {
        provider.close();
    }

    private static long consumerClock() {
        return System.nanoTime() - ORIGIN;
    }

    private static byte[] echo(long id, String value, int deadlineMillis, long sentNanos) throws Exception {
        ByteBuf frame = RequestCodec.encode(ByteBufAllocator.DEFAULT, new JsonSerialization(), id, deadlineMillis, sentNanos,
                Shapes.class.getName(), Shapes.class.getMethod("echo", String.class), new Object[] {value}, Map.of());
        try {
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    /** Reads frames until the answer to {@code id}; returns its status and body. */
    private static String answer(DataInputStream in, long id) throws IOException {
        while (true) {
            byte[] header = new byte[Frame.HEADER_LENGTH];
            in.readFully(header);
            int flags = header[3] & 0xff;
            int status = header[4] & 0xff;
            long requestId = java.nio.ByteBuffer.wrap(header, 8, 8).getLong();
            byte[] body = new byte[java.nio.ByteBuffer.wrap(header, 20, 4).getInt()];
            in.readFully(body);
            if ((flags & (Frame.FLAG_EVENT | Frame.FLAG_REQUEST)) == 0 && requestId == id) {
                return status + " " + new String(body, StandardCharsets.UTF_8);
            }
        }
    }

    @Test
    void aRequestSentLongBeforeItIsRead_isNotRun_withoutAnyCancel_whileFreshOnesAre() throws Exception {
        Exporter<Shapes> exporter = provider.export(Shapes.class, impl, "");
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), exporter.getInvoker().getUrl().getPort())) {
            socket.setSoTimeout(10_000);
            OutputStream out = socket.getOutputStream();
            DataInputStream in = new DataInputStream(socket.getInputStream());
            ByteBuf ping = Frame.ping(ByteBufAllocator.DEFAULT, consumerClock());
            try {
                out.write(ByteBufUtil.getBytes(ping));
            } finally {
                ping.release();
            }
            out.write(echo(1, "fresh", 1000, consumerClock()));
            assertThat(answer(in, 1)).isEqualTo(Status.OK + " \"fresh\"");

            // sent 5 s ago with 1 s left, read only now; no CANCEL follows
            out.write(echo(2, ShapesImpl.MARK + "late", 1000, consumerClock() - TimeUnit.SECONDS.toNanos(5)));
            assertThat(answer(in, 2)).startsWith(Status.DEADLINE_EXPIRED + " ").contains("not run");

            out.write(echo(3, "fresh again", 1000, consumerClock()));
            assertThat(answer(in, 3)).as("the late frame did not shift the estimate").isEqualTo(Status.OK + " \"fresh again\"");
        }
        assertThat(impl.markedEchoes).hasValue(0);
        assertThat(impl.calls).hasValue(2);
        assertThat(((WeftExporter<?>) exporter).service().expiredCalls()).isEqualTo(1);
    }

    @Test
    void aRequestWithoutTheConsumersClockReading_countsItsDeadlineFromItsArrival_asBefore() throws Exception {
        Exporter<Shapes> exporter = provider.export(Shapes.class, impl, "");
        try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), exporter.getInvoker().getUrl().getPort())) {
            socket.setSoTimeout(10_000);
            // an older consumer's request: the same frame with no weft.sent-nanos attachment
            byte[] stamped = echo(1, "old consumer", 1000, 42);
            byte[] plain = withoutStamp(stamped);
            socket.getOutputStream().write(plain);
            assertThat(answer(new DataInputStream(socket.getInputStream()), 1)).isEqualTo(Status.OK + " \"old consumer\"");
        }
    }

    /** {@code frame} with its first attachment (the clock reading, which the codec writes first) taken out. */
    private static byte[] withoutStamp(byte[] frame) {
        java.nio.ByteBuffer buf = java.nio.ByteBuffer.wrap(frame);
        int at = Frame.HEADER_LENGTH;
        for (int i = 0; i < 3; i++) { // service, method, descriptor
            at += 2 + (buf.getShort(at) & 0xffff);
        }
        int count = buf.getShort(at) & 0xffff;
        int first = at + 2;
        int key = 2 + (buf.getShort(first) & 0xffff);
        int value = 2 + (buf.getShort(first + key) & 0xffff);
        byte[] out = new byte[frame.length - key - value];
        System.arraycopy(frame, 0, out, 0, first);
        System.arraycopy(frame, first + key + value, out, first, frame.length - first - key - value);
        java.nio.ByteBuffer o = java.nio.ByteBuffer.wrap(out);
        o.putShort(at, (short) (count - 1));
        o.putInt(20, out.length - Frame.HEADER_LENGTH);
        return out;
    }
}
