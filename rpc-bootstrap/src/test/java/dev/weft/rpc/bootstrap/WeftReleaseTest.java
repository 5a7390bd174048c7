package dev.weft.rpc.bootstrap;

import dev.weft.rpc.protocol.Exporter;
import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.IOException;
import java.lang.ref.WeakReference;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the user released on a live {@link Weft} is no longer held by it: a long-lived instance
 * that exports and unexports often does not grow, and keeps no released implementation reachable.
 */
class WeftReleaseTest {

    private static final int GC_ATTEMPTS = 50;

    @ParameterizedTest
    @ValueSource(strings = {"weft://127.0.0.1:0", "injvm://127.0.0.1"})
    void unexport_onALiveWeft_letsTheImplementationBeCollected(String providerUrl) throws InterruptedException {
        try (Weft weft = Weft.builder().build()) {
            WeakReference<Greeter> implementation = exportAndUnexport(weft, providerUrl, "a");

            assertThat(collected(List.of(implementation))).as("implementation collectable once unexported").isTrue();
        }
    }

    @Test
    void release_ofReferences_onALiveWeft_letsTheirProxiesBeCollected() throws InterruptedException {
        try (Weft weft = Weft.builder().build()) {
            int port = weft.export(Greeter.class, new NamedGreeter("a"), "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
            List<WeakReference<Greeter>> released = new ArrayList<>();
            for (int i = 0; i < 20; i++) {
                Greeter greeter = weft.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&timeout=" + (2000 + i));
                assertThat(greeter.greet("ada")).isEqualTo("a:ada");
                weft.release(greeter);
                released.add(new WeakReference<>(greeter));
            }

            assertThat(collected(released)).as("proxies collectable once released").isTrue();
        }
    }

    @Test
    void unexport_onALiveWeftWithARegistry_letsTheImplementationBeCollected() throws InterruptedException {
        try (Weft weft = Weft.builder().registry("memory://release").build()) {
            WeakReference<Greeter> implementation = exportAndUnexport(weft, "weft://127.0.0.1:0", "a");

            assertThat(collected(List.of(implementation))).as("implementation collectable once unexported").isTrue();
        }
    }

    @Test
    void manyExportUnexportCycles_onOnePort_eachServe_leaveNothingHeld_andCloseUnexportsTheRest() throws Exception {
        int port = freePort();
        int livePort;
        List<WeakReference<Greeter>> implementations = new ArrayList<>();
        try (ExtensionDirector consumers = new ExtensionDirector(getClass().getClassLoader());
             Weft weft = Weft.builder().registry("memory://cycles").build()) {
            livePort = weft.export(Greeter.class, new NamedGreeter("live"), "weft://127.0.0.1:0").getInvoker().getUrl().getPort();
            for (int cycle = 0; cycle < 200; cycle++) {
                implementations.add(exportCallUnexport(weft, consumers, port, "c" + cycle));
                assertThat(canBind(port)).as("cycle %s: port free once unexported", cycle).isTrue();
            }

            assertThat(collected(implementations)).as("every unexported implementation collectable on the live Weft")
                    .isTrue();
        }
        assertThat(canBind(port)).isTrue();
        assertThat(canBind(livePort)).as("the service still exported is unexported by close()").isTrue();
    }

    private static WeakReference<Greeter> exportCallUnexport(Weft weft, ExtensionDirector consumers, int port, String name) {
        Greeter implementation = new NamedGreeter(name);
        Exporter<Greeter> exporter = weft.export(Greeter.class, implementation, "weft://127.0.0.1:" + port);
        try (Weft consumer = Weft.builder().director(consumers).build()) {
            Greeter greeter = consumer.refer(Greeter.class, "url=weft://127.0.0.1:" + port + "&timeout=5000&retries=0");
            assertThat(greeter.greet("ada")).as("served by %s", name).isEqualTo(name + ":ada");
        }
        exporter.unexport();
        return new WeakReference<>(implementation);
    }

    @Test
    void close_ofAWeftClosingOnShutdown_releasesItsShutdownHook_soTheWeftCanBeCollected() throws InterruptedException {
        WeakReference<Weft> weft = closedWeftClosingOnShutdown();

        assertThat(collected(List.of(weft))).as("a closed Weft, no longer held by a JVM shutdown hook").isTrue();
    }

    private static WeakReference<Weft> closedWeftClosingOnShutdown() {
        Weft weft = Weft.builder().closeOnShutdown().build();
        weft.export(Greeter.class, new NamedGreeter("a"), "injvm://127.0.0.1");
        weft.close();
        return new WeakReference<>(weft);
    }

    private static WeakReference<Greeter> exportAndUnexport(Weft weft, String providerUrl, String name) {
        Greeter implementation = new NamedGreeter(name);
        Exporter<Greeter> exporter = weft.export(Greeter.class, implementation, providerUrl);
        exporter.unexport();
        return new WeakReference<>(implementation);
    }

    private static boolean collected(List<? extends WeakReference<?>> references) throws InterruptedException {
        for (int attempt = 0; attempt < GC_ATTEMPTS; attempt++) {
            if (references.stream().allMatch(reference -> reference.get() == null)) {
                return true;
            }
            System.gc();
            Thread.sleep(20);
        }
        return references.stream().allMatch(reference -> reference.get() == null);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    private static boolean canBind(int port) {
        try (ServerSocket socket = new ServerSocket(port, 1, InetAddress.getLoopbackAddress())) {
            return true;
        } catch (IOException inUse) {
            return false;
        }
    }
}
