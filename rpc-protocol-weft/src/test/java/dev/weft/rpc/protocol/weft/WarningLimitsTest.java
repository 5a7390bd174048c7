package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.ThrottledLog;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.testing.CapturingLogger;
import dev.weft.rpc.testing.FakeTicker;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** Warnings under faults: one rate limit per kind of event, with counts. */
class WarningLimitsTest {

    @Test
    void aFloodOfOneKind_neverHidesAnotherKind_andEachLineCountsWhatItStandsFor() {
        CapturingLogger log = new CapturingLogger();
        FakeTicker ticker = new FakeTicker();
        PeerWarnings warnings = new PeerWarnings(log, ticker, Duration.ofSeconds(10));

        for (int i = 0; i < 1_000; i++) {
            warnings.warn(PeerWarnings.Kind.MALFORMED_FRAME, "closing peer " + i + ": frame magic");
        }
        warnings.warn(PeerWarnings.Kind.OVER_BUDGET, "closing slow peer: min-upload-rate");
        ticker.advance(10, TimeUnit.SECONDS);
        warnings.warn(PeerWarnings.Kind.MALFORMED_FRAME, "closing peer 1000: frame magic");

        assertThat(log.lines()).containsExactly(
                "WARN closing peer 0: frame magic",
                "WARN closing slow peer: min-upload-rate",
                "WARN closing peer 1000: frame magic (999 more not logged since the last line)");
    }

    /** 40 addresses that refuse connections: one "cannot connect" line per interval for all of them. */
    @Test
    void unreachableProviders_shareOneCannotConnectLimit() throws Exception {
        CapturingLogger log = new CapturingLogger();
        ThrottledLog connectFailures = new ThrottledLog(log, new FakeTicker(), Duration.ofSeconds(10));
        List<Integer> closedPorts = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
                closedPorts.add(socket.getLocalPort());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }
        Transport transport = Transport.best();
        EventLoopGroup group = new MultiThreadIoEventLoopGroup(1, transport.ioHandlerFactory());
        List<ClientConnection> connections = new ArrayList<>();
        try {
            for (int port : closedPorts) {
                ClientSettings settings = ClientSettings.of(URL.valueOf("weft://127.0.0.1:" + port + "/x.Y"));
                connections.add(new ClientConnection(settings, group, transport,
                        new Backoff(10_000, 10_000, 0.2, new Random(1)), new FakeTicker(),
                        connectFailures, connectFailures, new ExceptionCodec()));
            }
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (connectFailures.unreported() < closedPorts.size() - 1 && System.nanoTime() < end) {
                Thread.sleep(20);
            }
        } finally {
            connections.forEach(ClientConnection::close);
            group.shutdownGracefully(0, 1, TimeUnit.SECONDS).awaitUninterruptibly(5, TimeUnit.SECONDS);
        }
        assertThat(log.lines()).hasSize(1);
        assertThat(log.lines().get(0)).startsWith("WARN weft client: cannot connect to 127.0.0.1:");
        assertThat(connectFailures.unreported()).isEqualTo(closedPorts.size() - 1);
    }
}
