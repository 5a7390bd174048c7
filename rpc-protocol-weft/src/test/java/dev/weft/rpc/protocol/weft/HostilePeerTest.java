package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.protocol.Exporter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.Socket;
import java.net.SocketException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Raw-socket peers that try to make a provider hold memory without bound — never reading the
 * answers, trickling a large upload, many large uploads at once — are bounded; a real consumer on
 * its own connection keeps being served throughout.
 */
class HostilePeerTest {

    @AfterAll
    static void noLeaks() {
        LeakCounter.assertNoLeaks();
    }

    private static byte[] request(long id, String method, Class<?>[] types, Object... arguments) {
        try {
            Method m = Shapes.class.getMethod(method, types);
            ByteBuf frame = RequestCodec.encode(ByteBufAllocator.DEFAULT, new JsonSerialization(), id, 0,
                    System.nanoTime(), Shapes.class.getName(), m, arguments, Map.of());
            try {
                return ByteBufUtil.getBytes(frame);
            } finally {
                frame.release();
            }
        } catch (IOException | ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The count of {@code repeat} calls run, once it has not moved for half a second (at most 15 s). */
    private static int awaitSteady(ShapesImpl impl) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        int last = -1;
        int steadyFor = 0;
        while (System.nanoTime() < end && steadyFor < 5) {
            Thread.sleep(100);
            int now = impl.repeats.get();
            steadyFor = now == last && now > 0 ? steadyFor + 1 : 0;
            last = now;
        }
        return last;
    }

    @Test
    void pipelinedRequestsForLargeAnswers_neverRead_runAtMostConnectionCalls_andARealConsumerIsServed()
            throws Exception {
        int requests = 3_000;
        ShapesImpl impl = new ShapesImpl();
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, impl, "connection-calls=16");
            Shapes real = Loopback.proxy(Shapes.class, loopback.refer(Shapes.class, exporter, "timeout=5000"));
            ByteArrayOutputStream all = new ByteArrayOutputStream();
            for (int id = 1; id <= requests; id++) {
                all.write(request(id, "repeat", new Class<?>[] {String.class, int.class}, "x", 64 * 1024));
            }
            try (Socket peer = new Socket(InetAddress.getLoopbackAddress(), exporter.getInvoker().getUrl().getPort())) {
                peer.setReceiveBufferSize(16 * 1024);
                peer.setSoTimeout(20_000);
                CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> {
                    try {
                        peer.getOutputStream().write(all.toByteArray());
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                int ran = awaitSteady(impl);
                System.out.printf("non-reading peer: %d of %d calls ran%n", ran, requests);
                // 16 decoded and unanswered, plus those whose answers the kernel's socket buffers took
                assertThat(ran).as("calls run for a peer that reads nothing").isLessThan(200);
                for (int i = 0; i < 200; i++) {
                    assertThat(real.echo("real " + i)).isEqualTo("real " + i);
                }

                DataInputStream in = new DataInputStream(peer.getInputStream());
                for (int i = 1; i <= requests; i++) {
                    byte[] header = new byte[Frame.HEADER_LENGTH];
                    in.readFully(header);
                    int bodyLength = ((header[20] & 0xff) << 24) | ((header[21] & 0xff) << 16)
                            | ((header[22] & 0xff) << 8) | (header[23] & 0xff);
                    in.skipNBytes(bodyLength);
                    assertThat(header[4]).as("status of answer %d", i).isEqualTo((byte) Status.OK);
                }
                sending.get(20, TimeUnit.SECONDS);
            }
            assertThat(impl.repeats.get()).isEqualTo(requests);
        }
    }

    private static byte[] largeHeader(long id, int bodyLength) {
        ByteBuf frame = Frame.start(ByteBufAllocator.DEFAULT, Frame.FLAG_REQUEST | Frame.FLAG_TWO_WAY, 0,
                JsonSerialization.ID, id, 0);
        try {
            WireStrings.write(frame, Shapes.class.getName());
            WireStrings.write(frame, "echo");
            WireStrings.write(frame, "java.lang.String");
            frame.writeShort(0);
            int head = frame.readableBytes() - Frame.HEADER_LENGTH;
            frame.writeByte('"');
            frame.setInt(Frame.LENGTH_OFFSET, bodyLength);
            assertThat(head).isLessThan(bodyLength);
            return ByteBufUtil.getBytes(frame);
        } finally {
            frame.release();
        }
    }

    private static void writeOneByte(Socket socket) {
        try {
            socket.getOutputStream().write('y');
        } catch (IOException e) {
            throw new IllegalStateException("the provider closed a connection whose body kept arriving", e);
        }
    }

    /** Reads until the server closes the connection; returns the milliseconds that took. */
    private static long millisUntilClosed(InputStream in) throws IOException {
        long start = System.nanoTime();
        try {
            while (in.read() >= 0) {
                // drain
            }
        } catch (SocketException reset) {
            // a reset is a close too
        }
        return TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
    }

    @Test
    void largeUploadsBeyondTheRequestBudget_areRefusedNotProcessed_andARealConsumerIsServed() throws Exception {
        int body = 1024 * 1024;
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(),
                    "payload=" + body + "&request-budget=" + 2 * body + "&min-upload-rate=1");
            Shapes real = Loopback.proxy(Shapes.class, loopback.refer(Shapes.class, exporter, "timeout=5000"));
            int port = exporter.getInvoker().getUrl().getPort();
            List<Socket> holders = new ArrayList<>();
            // the holders keep their bodies arriving, above min-upload-rate (1 byte/s here), until the end
            ScheduledExecutorService keeper = Executors.newSingleThreadScheduledExecutor();
            try {
                for (int i = 0; i < 2; i++) {
                    Socket holder = new Socket(InetAddress.getLoopbackAddress(), port);
                    holders.add(holder);
                    holder.getOutputStream().write(largeHeader(1, body));
                    holder.getOutputStream().write(new byte[100 * 1024]);
                }
                keeper.scheduleAtFixedRate(() -> holders.forEach(HostilePeerTest::writeOneByte), 200, 200,
                        TimeUnit.MILLISECONDS);
                assertThat(real.echo("while two hold the budget")).isEqualTo("while two hold the budget");
                try (Socket third = new Socket(InetAddress.getLoopbackAddress(), port)) {
                    third.setSoTimeout(10_000);
                    OutputStream out = third.getOutputStream();
                    out.write(largeHeader(7, body));
                    DataInputStream in = new DataInputStream(third.getInputStream());
                    byte[] header = new byte[Frame.HEADER_LENGTH];
                    in.readFully(header);
                    assertThat(header[4]).isEqualTo((byte) Status.NOT_PROCESSED);
                    assertThat(header[15]).isEqualTo((byte) 7);
                    byte[] reason = new byte[((header[22] & 0xff) << 8) | (header[23] & 0xff)];
                    in.readFully(reason);
                    assertThat(new String(reason, StandardCharsets.UTF_8))
                            .startsWith("request body: 1048576 bytes (expected: room in request-budget 2097152 bytes");
                }
            } finally {
                keeper.shutdownNow();
                assertThat(keeper.awaitTermination(5, TimeUnit.SECONDS)).isTrue();
                for (Socket holder : holders) {
                    holder.close();
                }
            }
            // the budget comes back when the holders' connections close
            String large = "y".repeat(body - 1024);
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            String answer = null;
            while (answer == null && System.nanoTime() < end) {
                try {
                    answer = real.echo(large);
                } catch (RuntimeException notYet) {
                    Thread.sleep(50);
                }
            }
            assertThat(answer).isEqualTo(large);
        }
    }

    /** 250,001 empty objects into an {@code Object} parameter: over the token cap, refused before they become maps. */
    @Test
    void tooManyJsonElements_areRefusedBadRequest() throws Exception {
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(), "");
            String elements = "[" + "{},".repeat(250_000) + "{}]";
            ByteBuf frame = Frame.start(ByteBufAllocator.DEFAULT, Frame.FLAG_REQUEST | Frame.FLAG_TWO_WAY, 0,
                    JsonSerialization.ID, 4, 0);
            try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), exporter.getInvoker().getUrl().getPort())) {
                socket.setSoTimeout(10_000);
                WireStrings.write(frame, Shapes.class.getName());
                WireStrings.write(frame, "any");
                WireStrings.write(frame, "java.lang.Object");
                frame.writeShort(0);
                frame.writeCharSequence(elements, StandardCharsets.US_ASCII);
                Frame.finish(frame);
                socket.getOutputStream().write(ByteBufUtil.getBytes(frame));
                DataInputStream in = new DataInputStream(socket.getInputStream());
                byte[] header = new byte[Frame.HEADER_LENGTH];
                in.readFully(header);
                byte[] reason = new byte[((header[21] & 0xff) << 16) | ((header[22] & 0xff) << 8) | (header[23] & 0xff)];
                in.readFully(reason);
                assertThat(header[4]).isEqualTo((byte) Status.BAD_REQUEST);
                assertThat(new String(reason, StandardCharsets.UTF_8))
                        .contains("any(java.lang.Object)").contains("Token count (500001) exceeds the maximum allowed (500000");
            } finally {
                frame.release();
            }
        }
    }

    @Test
    void anUploadTricklingBelowMinUploadRate_isClosed() throws Exception {
        int body = 1024 * 1024;
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(),
                    "payload=" + body + "&min-upload-rate=" + body + "&heartbeat=60000");
            Shapes real = Loopback.proxy(Shapes.class, loopback.refer(Shapes.class, exporter, "timeout=5000"));
            try (Socket trickler = new Socket(InetAddress.getLoopbackAddress(), exporter.getInvoker().getUrl().getPort())) {
                trickler.setSoTimeout(15_000);
                OutputStream out = trickler.getOutputStream();
                out.write(largeHeader(3, body));
                CompletableFuture<Long> closed = CompletableFuture.supplyAsync(() -> {
                    try {
                        return millisUntilClosed(trickler.getInputStream());
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                // one byte every 100 ms: the idle timer (3 minutes here) would never fire
                for (int i = 0; i < 100 && !closed.isDone(); i++) {
                    try {
                        out.write('y');
                    } catch (SocketException closedMeanwhile) {
                        break;
                    }
                    Thread.sleep(100);
                }
                // after 1 s of grace the body falls behind 1 MiB/s at once; closed at the next check
                assertThat(closed.get(5, TimeUnit.SECONDS)).isBetween(900L, 4_000L);
            }
            assertThat(real.echo("still served")).isEqualTo("still served");
        }
    }

    /**
     * 3 of a declared 4 MiB sent at once, then a byte every 500 ms: averaged from its start it would
     * stay above the default 64 KiB/s for 49 s; over a sliding window it falls behind 5 s after the
     * burst, and the check a second later closes it.
     */
    @Test
    void anUploadSentInABurstThenTrickled_isClosedWithinTheWindow() throws Exception {
        int body = 4 * 1024 * 1024;
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(), "heartbeat=60000");
            Shapes real = Loopback.proxy(Shapes.class, loopback.refer(Shapes.class, exporter, "timeout=5000"));
            try (Socket trickler = new Socket(InetAddress.getLoopbackAddress(), exporter.getInvoker().getUrl().getPort())) {
                trickler.setSoTimeout(30_000);
                OutputStream out = trickler.getOutputStream();
                out.write(largeHeader(5, body));
                out.write(new byte[3 * 1024 * 1024]);
                CompletableFuture<Long> closed = CompletableFuture.supplyAsync(() -> {
                    try {
                        return millisUntilClosed(trickler.getInputStream());
                    } catch (IOException e) {
                        throw new IllegalStateException(e);
                    }
                });
                for (int i = 0; i < 60 && !closed.isDone(); i++) {
                    try {
                        out.write('y');
                    } catch (SocketException closedMeanwhile) {
                        break;
                    }
                    Thread.sleep(500);
                }
                assertThat(closed.get(5, TimeUnit.SECONDS)).isBetween(4_000L, 15_000L);
            }
            assertThat(real.echo("still served")).isEqualTo("still served");
        }
    }

    /**
     * A 256 KiB body sent at 32 KiB/s, twice {@code min-upload-rate}, for 8 s: longer than the
     * window, slow and steady, it is served.
     */
    @Test
    void aSlowSteadyUploadAboveMinUploadRate_isServed() throws Exception {
        int body = 256 * 1024;
        int chunk = 4 * 1024;
        long chunkNanos = TimeUnit.MILLISECONDS.toNanos(125);
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(),
                    "min-upload-rate=" + 16 * 1024 + "&heartbeat=60000");
            byte[] head = largeHeader(9, body);
            byte[] frame = new byte[Frame.HEADER_LENGTH + body];
            System.arraycopy(head, 0, frame, 0, head.length);
            Arrays.fill(frame, head.length, frame.length - 1, (byte) 'y');
            frame[frame.length - 1] = '"';
            try (Socket uploader = new Socket(InetAddress.getLoopbackAddress(), exporter.getInvoker().getUrl().getPort())) {
                uploader.setSoTimeout(20_000);
                OutputStream out = uploader.getOutputStream();
                long start = System.nanoTime();
                for (int off = 0, i = 0; off < frame.length; off += chunk, i++) {
                    long wait = start + i * chunkNanos - System.nanoTime(); // paced from the start: a late write catches up
                    if (wait > 0) {
                        TimeUnit.NANOSECONDS.sleep(wait);
                    }
                    out.write(frame, off, Math.min(chunk, frame.length - off));
                }
                assertThat(System.nanoTime() - start).as("upload time").isGreaterThan(TimeUnit.SECONDS.toNanos(7));
                DataInputStream in = new DataInputStream(uploader.getInputStream());
                byte[] header = new byte[Frame.HEADER_LENGTH];
                in.readFully(header);
                assertThat(header[15]).as("request id").isEqualTo((byte) 9);
                assertThat(header[4]).as("status").isEqualTo((byte) Status.OK);
            }
        }
    }
}
