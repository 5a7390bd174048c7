package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.RpcException;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.Protocol;
import dev.weft.rpc.protocol.Serialization;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.ServerSocket;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The extensions are found by name, and bad export or refer URLs fail before any socket opens. */
class ExportValidationTest {

    @Test
    void descriptors_registerWeftAndJson() {
        try (ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader())) {
            Protocol weft = director.getExtensionLoader(Protocol.class).getExtension("weft", false);
            assertThat(director.getExtensionLoader(Protocol.class).getExtension("weft").toString()).contains("ProtocolFilterWrapper");
            assertThat(weft).isInstanceOf(WeftProtocol.class);
            // wrapped (filter chains) by default, with the same default port
            assertThat(director.getExtensionLoader(Protocol.class).getExtension("weft").getDefaultPort()).isEqualTo(20880);
            Serialization json = director.getExtensionLoader(Serialization.class).getDefaultExtension();
            assertThat(json).isInstanceOf(JsonSerialization.class);
            assertThat(json.getId()).isEqualTo((byte) 1);
        }
    }

    @Test
    void anyHostWithoutRegisterHost_isRejected_withTheKeyToSet() {
        try (Loopback loopback = new Loopback()) {
            URL url = URL.valueOf("weft://0.0.0.0:0/" + Shapes.class.getName());
            assertThatThrownBy(() -> loopback.protocol.export(Loopback.provider(Shapes.class, new ShapesImpl(), url)))
                    .isInstanceOf(RpcException.class)
                    .hasMessageContaining("register-host: absent")
                    .hasMessageContaining("required when exporting on 0.0.0.0");
        }
    }

    @Test
    void concreteHostWithAnotherRegisterHost_isRejected_beforeBinding() {
        try (Loopback loopback = new Loopback()) {
            URL url = URL.valueOf("weft://127.0.0.1:0/" + Shapes.class.getName() + "?register-host=10.1.2.3");
            assertThatThrownBy(() -> loopback.protocol.export(Loopback.provider(Shapes.class, new ShapesImpl(), url)))
                    .isInstanceOf(RpcException.class)
                    .hasMessageContaining("register-host: 10.1.2.3 (expected: absent or 127.0.0.1");
        }
    }

    @Test
    void portTakenByAnotherSocket_failsWithTheAddress_andLeavesNoThreadBehind() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getByName("127.0.0.1"));
             Loopback loopback = new Loopback()) {
            URL url = URL.valueOf("weft://127.0.0.1:" + taken.getLocalPort() + "/" + Shapes.class.getName());

            assertThatThrownBy(() -> loopback.protocol.export(Loopback.provider(Shapes.class, new ShapesImpl(), url)))
                    .isInstanceOf(RpcException.class)
                    .hasMessageContaining("bind: /127.0.0.1:" + taken.getLocalPort())
                    .hasMessageContaining("(expected: a free local address and port)");
            FaultTest.awaitTrue(() -> Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(thread -> thread.isAlive() && thread.getName().startsWith("weft-server-" + taken.getLocalPort())));
        }
    }

    @Test
    void serviceJoiningARunningServer_withAnotherValueOfAServerKey_isRejected_namingBoth() {
        try (Loopback loopback = new Loopback()) {
            int port = loopback.export(Shapes.class, new ShapesImpl(), "threads=50&shutdown-timeout=2000")
                    .getInvoker().getUrl().getPort();
            URL conflicting = URL.valueOf("weft://127.0.0.1:" + port + "/" + Shapes.class.getName() + "?version=2&threads=60");

            assertThatThrownBy(() -> loopback.protocol.export(Loopback.provider(Shapes.class, new ShapesImpl(), conflicting)))
                    .isInstanceOf(RpcException.class)
                    .hasMessage("export: threads: 60 in " + conflicting + " (expected: 50, which the server on 127.0.0.1:"
                            + port + " runs with since its first export, or the key left out)");
            for (String joining : new String[] {"version=3&threads=50&shutdown-timeout=2000", "version=4"}) {
                URL url = URL.valueOf("weft://127.0.0.1:" + port + "/" + Shapes.class.getName() + "?" + joining);
                assertThat(loopback.protocol.export(Loopback.provider(Shapes.class, new ShapesImpl(), url))
                        .getInvoker().getUrl().getPort()).isEqualTo(port);
            }
        }
    }

    @Test
    void exportedUrl_isTheRegisteredUrl_withTheBoundPort_andNoRegisterHost() {
        try (Loopback loopback = new Loopback()) {
            URL url = URL.valueOf("weft://127.0.0.1:0/" + Shapes.class.getName() + "?register-host=127.0.0.1&version=2");
            URL exported = loopback.protocol.export(Loopback.provider(Shapes.class, new ShapesImpl(), url))
                    .getInvoker().getUrl();
            assertThat(exported.getHost()).isEqualTo("127.0.0.1");
            assertThat(exported.getPort()).isPositive();
            assertThat(exported.getParameter("register-host")).isNull();
            assertThat(exported.getParameter("version")).isEqualTo("2");
        }
    }

    @Test
    void badKeyValues_areRejectedNamingKeyAndRule() {
        try (Loopback loopback = new Loopback()) {
            assertThatThrownBy(() -> loopback.export(Shapes.class, new ShapesImpl(), "threads=0"))
                    .isInstanceOf(RpcException.class).hasMessageStartingWith("threads: 0 (expected: > 0)");
            assertThatThrownBy(() -> loopback.export(Shapes.class, new ShapesImpl(), "payload=-1"))
                    .isInstanceOf(RpcException.class).hasMessageStartingWith("payload: -1 (expected: > 0 bytes)");
            assertThatThrownBy(() -> loopback.export(Shapes.class, new ShapesImpl(), "serialization=hessian2"))
                    .isInstanceOf(RpcException.class).hasMessageStartingWith("serialization: hessian2")
                    .hasMessageContaining("[json]");
            assertThatThrownBy(() -> loopback.refer(Shapes.class, 20880, "connections=0"))
                    .isInstanceOf(RpcException.class).hasMessageStartingWith("connections: 0 (expected: 1 to 64)");
        }
    }

    @Test
    void badTimeout_failsTheCall_namingTheKey() {
        try (Loopback loopback = new Loopback()) {
            var exporter = loopback.export(Shapes.class, new ShapesImpl(), "");
            Shapes shapes = Loopback.proxy(Shapes.class, loopback.refer(Shapes.class, exporter, "timeout=-5"));
            assertThatThrownBy(() -> shapes.echo("x"))
                    .isInstanceOf(RpcException.class)
                    .hasMessageStartingWith("timeout: -5 (expected: milliseconds > 0) for echo");
        }
    }
}
