package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.protocol.Exporter;
import io.netty.buffer.ByteBuf;
import io.netty.buffer.ByteBufAllocator;
import io.netty.buffer.ByteBufUtil;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.reflect.Method;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A peer that sends requests but does not read the answers: the provider stops reading from it
 * once its answers back up, instead of running every request and holding every answer in memory;
 * it carries on, with nothing lost, when the peer reads again. Other consumers are served meanwhile.
 */
class BackpressureTest {

    /**
     * 64 MiB of requests: more than the kernel can hold for a provider that stopped reading (its
     * receive buffer grows up to {@code tcp_rmem}'s maximum, 32 MiB here, and the peer's send
     * buffer up to 4 MiB), so the peer's writes must block once the provider stops reading.
     */
    private static final int REQUESTS = 2000;
    private static final String PAYLOAD = "p".repeat(32 * 1024);

    @AfterAll
    static void noLeaks() {
        LeakCounter.assertNoLeaks();
    }

    @Test
    void peerNotReadingAnswers_isNoLongerRead_thenResumesWithNothingLost() throws Exception {
        ShapesImpl impl = new ShapesImpl();
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, impl, "");
            Shapes other = Loopback.proxy(Shapes.class, loopback.refer(Shapes.class, exporter, "timeout=5000"));
            String service = Shapes.class.getName();
            try (Socket peer = new Socket()) {
                // a small receive buffer, so that the kernel holds few answers for the peer
                peer.setReceiveBufferSize(64 * 1024);
                peer.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(),
                        exporter.getInvoker().getUrl().getPort()), 5000);
                peer.setSoTimeout(20_000);
                CompletableFuture<Void> sending = CompletableFuture.runAsync(() -> send(peer, service));

                int ranWhileNotRead = awaitSteady(impl);
                System.out.printf("backpressure: %d of %d calls ran while the peer read nothing%n", ranWhileNotRead, REQUESTS);
                assertThat(ranWhileNotRead).as("calls run while the peer read nothing").isLessThan(REQUESTS / 2);
                assertThat(sending).as("the peer's writes are held back too").isNotDone();
                assertThat(other.echo("meanwhile")).isEqualTo("meanwhile");

                DataInputStream in = new DataInputStream(peer.getInputStream());
                for (int i = 1; i <= REQUESTS; i++) {
                    byte[] header = new byte[Frame.HEADER_LENGTH];
                    in.readFully(header);
                    int bodyLength = ((header[20] & 0xff) << 24) | ((header[21] & 0xff) << 16)
                            | ((header[22] & 0xff) << 8) | (header[23] & 0xff);
                    in.skipNBytes(bodyLength);
                    assertThat(header[4]).as("status of answer %d", i).isEqualTo((byte) Status.OK);
                }
                sending.get(20, TimeUnit.SECONDS);
            }
            assertThat(impl.calls.get()).isEqualTo(REQUESTS + 1);
        }
    }

    private static void send(Socket peer, String service) {
        try {
            Method echo = Shapes.class.getMethod("echo", String.class);
            OutputStream out = peer.getOutputStream();
            for (int id = 1; id <= REQUESTS; id++) {
                ByteBuf frame = RequestCodec.encode(ByteBufAllocator.DEFAULT, new JsonSerialization(), id, 0, System.nanoTime(), service,
                        echo, new Object[] {PAYLOAD}, Map.of());
                try {
                    out.write(ByteBufUtil.getBytes(frame));
                } finally {
                    frame.release();
                }
            }
            out.flush();
        } catch (IOException | ReflectiveOperationException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The count of calls run, once it has not moved for half a second (at most 15 s). */
    private static int awaitSteady(ShapesImpl impl) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(15);
        int last = -1;
        int steadyFor = 0;
        while (System.nanoTime() < end && steadyFor < 5) {
            Thread.sleep(100);
            int now = impl.calls.get();
            steadyFor = now == last && now > 0 ? steadyFor + 1 : 0;
            last = now;
        }
        return last;
    }
}
