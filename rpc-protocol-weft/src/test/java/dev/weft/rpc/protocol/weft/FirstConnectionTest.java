package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.common.RpcException;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.ArrayList;
import java.util.List;

import static dev.weft.rpc.protocol.weft.FaultTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Availability before the first connection exists: an eager invoker is available only once
 * connected (a cluster routes around a provider it cannot reach yet, and a {@code check} waits for
 * a real connection); a lazy one is available before its first call and while that call's
 * connection is being made, since the call waits for it, and on that first connection until its
 * provider is found unresponsive.
 */
class FirstConnectionTest {

    @Test
    void whileTheFirstConnectionIsBeingMade_onlyALazyInvokerCountsAsAvailable() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        // A listener that never accepts, with its accept queue filled: the kernel drops further
        // connection requests, so the invoker's first attempt stays in progress.
        try (ServerSocket stalled = new ServerSocket(0, 1, loopback); Loopback consumer = new Loopback()) {
            List<Socket> fillers = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    Socket filler = new Socket();
                    filler.connect(new InetSocketAddress(loopback, stalled.getLocalPort()), 1000);
                    fillers.add(filler);
                }
            } catch (IOException full) {
                // the queue was full before the third filler: what the test needs
            }
            Invoker<Shapes> eager = consumer.refer(Shapes.class, stalled.getLocalPort(), "connect-timeout=60000");
            Invoker<Shapes> lazy = consumer.refer(Shapes.class, stalled.getLocalPort(),
                    "connect-timeout=60000&lazy=true&timeout=60000");
            assertThat(lazy.isAvailable()).as("lazy, not yet called").isTrue();
            Thread firstCall = new Thread(() -> {
                try {
                    Loopback.proxy(Shapes.class, lazy).echo("x");
                } catch (RuntimeException expected) {
                    // fails once the invoker is destroyed below
                }
            });
            firstCall.start();
            Thread.sleep(200);

            assertThat(eager.isAvailable()).as("eager, first connection still being made").isFalse();
            assertThat(lazy.isAvailable()).as("lazy, its first call's connection still being made").isTrue();

            eager.destroy();
            lazy.destroy();
            firstCall.join(10_000);
            for (Socket filler : fillers) {
                filler.close();
            }
        }
    }

    @Test
    void aLazyInvokersFirstConnection_countsFromTheHandshake_untilItsProviderIsFoundUnresponsive() throws Exception {
        InetAddress loopback = InetAddress.getByName("127.0.0.1");
        // accepts connections and never answers: the handshake succeeds, nothing is ever heard
        try (ServerSocket silent = new ServerSocket(0, 50, loopback); Loopback consumer = new Loopback()) {
            List<Socket> accepted = new ArrayList<>();
            Invoker<Shapes> eager = consumer.refer(Shapes.class, silent.getLocalPort(), "");
            accepted.add(silent.accept());
            Invoker<Shapes> lazy = consumer.refer(Shapes.class, silent.getLocalPort(), "lazy=true&timeout=60000");
            Thread firstCall = new Thread(() -> {
                try {
                    Loopback.proxy(Shapes.class, lazy).echo("x");
                } catch (RuntimeException expected) {
                    // fails once the invoker is destroyed below
                }
            });
            firstCall.start();
            accepted.add(silent.accept());
            Thread.sleep(200); // both connections made on the consumer's side too

            // the liveness bound is 1 s (the default heartbeat's tenth): a PING unanswered for
            // 1 s brings a probe, and that one unanswered for 1 s more makes the channel unresponsive
            assertThat(lazy.isAvailable()).as("lazy, connected, nothing heard yet").isTrue();
            assertThat(eager.isAvailable()).as("eager, connected, nothing heard yet").isFalse();
            awaitTrue(() -> !lazy.isAvailable());

            eager.destroy();
            lazy.destroy();
            firstCall.join(10_000);
            for (Socket socket : accepted) {
                socket.close();
            }
        }
    }

    @Test
    void afterTheFirstAttemptFailed_theInvokerIsUnavailable_untilAConnectionIsMade() throws Exception {
        int closedPort = closedPort();
        try (Loopback consumer = new Loopback()) {
            Invoker<Shapes> invoker = consumer.refer(Shapes.class, closedPort, "");

            awaitTrue(() -> !invoker.isAvailable());

            invoker.destroy();
        }
    }

    @Test
    void aCallFindingNoConnection_failsNotProcessed_sinceNothingWasSent() throws Exception {
        int closedPort = closedPort();
        try (Loopback consumer = new Loopback()) {
            Shapes shapes = Loopback.proxy(Shapes.class, consumer.refer(Shapes.class, closedPort, "timeout=2000"));

            assertThatThrownBy(() -> shapes.echo("x")).isInstanceOfSatisfying(RpcException.class, e -> {
                assertThat(e.isNotProcessed()).as("code %s", e.getCode()).isTrue();
                assertThat(e).hasMessageContaining("no connection to 127.0.0.1:" + closedPort)
                        .hasMessageContaining("not sent");
            });
        }
    }

    /** A port of 127.0.0.1 that was free a moment ago and that nobody listens on. */
    private static int closedPort() throws IOException {
        try (ServerSocket probe = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"))) {
            return probe.getLocalPort();
        }
    }
}
