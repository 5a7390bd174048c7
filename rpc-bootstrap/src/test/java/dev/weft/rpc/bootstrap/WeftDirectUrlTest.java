package dev.weft.rpc.bootstrap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Providers named directly with the consumer key {@code url}, over real weft sockets on 127.0.0.1. */
class WeftDirectUrlTest {

    private final Weft weft = Weft.builder().build();

    @AfterEach
    void close() {
        weft.close();
    }

    @Test
    void directUrl_withoutGroupOrVersion_takesTheConsumersOnes() {
        int port = weft.export(Greeter.class, new NamedGreeter("blue"), "weft://127.0.0.1:0?group=blue&version=2")
                .getInvoker().getUrl().getPort();
        weft.export(Greeter.class, new NamedGreeter("plain"), "weft://127.0.0.1:" + port);

        Greeter blue = weft.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&group=blue&version=2&retries=0");
        Greeter plain = weft.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&retries=0");

        assertThat(blue.greet("ada")).isEqualTo("blue:ada");
        assertThat(plain.greet("ada")).isEqualTo("plain:ada");
    }

    @Test
    void directUrls_withOneProviderDown_referSucceeds_andEveryCallReachesTheLiveOne() throws IOException {
        int live = weft.export(Greeter.class, new NamedGreeter("live"), "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
        int dead = freePort();
        Greeter greeter = weft.refer(Greeter.class,
                "url=weft://127.0.0.1:" + dead + ",weft://127.0.0.1:" + live + "&timeout=2000&loadbalance=roundrobin");

        for (int i = 0; i < 20; i++) {
            assertThat(greeter.greet("ada")).isEqualTo("live:ada");
        }
    }

    /**
     * {@code check=true} waits for a connected provider: a refused address fails the refer every
     * time, never only when the check happens to look after the refusal arrived.
     */
    @Test
    void checkTrue_withTheOnlyProviderRefusingConnections_failsTheReferEveryTime() throws IOException {
        for (int round = 0; round < 10; round++) {
            int dead = freePort();
            assertThatThrownBy(() -> weft.refer(Greeter.class, "url=weft://127.0.0.1:" + dead + "&timeout=300"))
                    .as("round %d", round)
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("127.0.0.1:" + dead);
        }
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }
}
