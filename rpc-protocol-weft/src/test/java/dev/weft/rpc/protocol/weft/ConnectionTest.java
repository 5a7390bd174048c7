package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.protocol.Exporter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static dev.weft.rpc.protocol.weft.FaultTest.awaitTrue;
import static org.assertj.core.api.Assertions.assertThat;

/** Connections are shared per address, opened lazily on request, and follow the invoker's life. */
class ConnectionTest {

    @AfterAll
    static void noLeaks() {
        LeakCounter.assertNoLeaks();
    }

    @Test
    void invokersToOneAddress_shareOneConnection_closedWithTheLastInvoker() throws Exception {
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(), "");
            try (TcpProxy proxy = new TcpProxy(exporter.getInvoker().getUrl().getPort())) {
                Invoker<Shapes> first = loopback.refer(Shapes.class, proxy.port(), "");
                Invoker<Shapes> second = loopback.refer(Shapes.class, proxy.port(), "");
                assertThat(Loopback.proxy(Shapes.class, first).echo("a")).isEqualTo("a");
                assertThat(Loopback.proxy(Shapes.class, second).echo("b")).isEqualTo("b");
                assertThat(proxy.accepted()).isEqualTo(1);

                first.destroy();
                assertThat(first.isAvailable()).isFalse();
                assertThat(Loopback.proxy(Shapes.class, second).echo("c")).isEqualTo("c");
                second.destroy();
                assertThat(second.isAvailable()).isFalse();
                assertThat(proxy.accepted()).isEqualTo(1);
            }
        }
    }

    @Test
    void invokersToOneAddress_withOtherConnectionSettings_getTheirOwnConnection() throws Exception {
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(), "");
            try (TcpProxy proxy = new TcpProxy(exporter.getInvoker().getUrl().getPort())) {
                Invoker<Shapes> plain = loopback.refer(Shapes.class, proxy.port(), "");
                Invoker<Shapes> otherTimeout = loopback.refer(Shapes.class, proxy.port(), "connect-timeout=2000");
                Invoker<Shapes> otherHeartbeat = loopback.refer(Shapes.class, proxy.port(), "heartbeat=20000");
                Invoker<Shapes> plainAgain = loopback.refer(Shapes.class, proxy.port(), "timeout=500");
                for (Invoker<Shapes> invoker : List.of(plain, otherTimeout, otherHeartbeat, plainAgain)) {
                    assertThat(Loopback.proxy(Shapes.class, invoker).echo("x")).isEqualTo("x");
                }
                assertThat(proxy.accepted()).isEqualTo(3);
            }
        }
    }

    @Test
    void connectionsKey_opensThatManyConnections() throws Exception {
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(), "");
            try (TcpProxy proxy = new TcpProxy(exporter.getInvoker().getUrl().getPort())) {
                Invoker<Shapes> invoker = loopback.refer(Shapes.class, proxy.port(), "connections=3");
                awaitTrue(() -> proxy.accepted() == 3);
                Shapes shapes = Loopback.proxy(Shapes.class, invoker);
                for (int i = 0; i < 10; i++) {
                    assertThat(shapes.add(i, 1)).isEqualTo(i + 1);
                }
                assertThat(proxy.accepted()).isEqualTo(3);
            }
        }
    }

    @Test
    void lazy_connectsOnFirstCall_andIsAvailableBefore() throws Exception {
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(), "");
            try (TcpProxy proxy = new TcpProxy(exporter.getInvoker().getUrl().getPort())) {
                Invoker<Shapes> invoker = loopback.refer(Shapes.class, proxy.port(), "lazy=true");
                Thread.sleep(200);
                assertThat(proxy.accepted()).isZero();
                assertThat(invoker.isAvailable()).isTrue();

                assertThat(Loopback.proxy(Shapes.class, invoker).echo("lazy")).isEqualTo("lazy");
                assertThat(proxy.accepted()).isEqualTo(1);
            }
        }
    }
    /**
     * Calls made the moment an invoker is referred race its first connection: they must wait for
     * that connection, never open a second one, in the instant between the connect completing and
     * the channel being published.
     */
    @Test
    void callsRacingTheFirstConnection_shareIt_neverOpenASecond() throws Exception {
        try (Loopback loopback = new Loopback()) {
            Exporter<Shapes> exporter = loopback.export(Shapes.class, new ShapesImpl(), "");
            try (TcpProxy proxy = new TcpProxy(exporter.getInvoker().getUrl().getPort())) {
                int rounds = 40;
                for (int round = 1; round <= rounds; round++) {
                    Invoker<Shapes> invoker = loopback.refer(Shapes.class, proxy.port(), "timeout=5000");
                    Shapes shapes = Loopback.proxy(Shapes.class, invoker);
                    List<CompletableFuture<String>> calls = new ArrayList<>();
                    for (int t = 0; t < 6; t++) {
                        calls.add(CompletableFuture.supplyAsync(() -> shapes.echo("x")));
                    }
                    for (CompletableFuture<String> call : calls) {
                        assertThat(call.get(10, TimeUnit.SECONDS)).isEqualTo("x");
                    }
                    assertThat(proxy.accepted()).as("connections after round %d", round).isEqualTo(round);
                    invoker.destroy();
                }
            }
        }
    }
}
