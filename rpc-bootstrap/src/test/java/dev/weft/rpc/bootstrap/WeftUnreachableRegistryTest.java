package dev.weft.rpc.bootstrap;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/**
 * A registry address where no ZooKeeper listens: {@code refer} fails naming the registry and that
 * it was never connected within the consumer's {@code timeout}, not seconds later with only "no
 * provider"; {@code export} reports it after the registry's {@code timeout} and registers once the
 * registry connects (a provider may start before ZooKeeper). Bounds are loose: 2 busy cores.
 */
class WeftUnreachableRegistryTest {

    /** Port 1 on loopback: nothing listens, connections are refused at once. */
    private static final String NOWHERE = "zookeeper://127.0.0.1:1";
    private final Weft weft = Weft.builder().registry(NOWHERE + "?timeout=1000").build();

    @AfterEach
    void close() {
        weft.close();
    }

    @Test
    void export_reportsTheRegistryNeverConnected_afterTheRegistrysTimeout() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream logged = new ByteArrayOutputStream();
        long started = System.nanoTime();
        // slf4j-simple, the tests' logging backend, writes to the System.err of the moment.
        System.setErr(new PrintStream(logged, true, StandardCharsets.UTF_8));
        try {
            weft.export(Greeter.class, new NamedGreeter("a"), "weft://127.0.0.1:0");
        } finally {
            System.setErr(stderr);
        }
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(logged.toString(StandardCharsets.UTF_8))
                .containsPattern("WARN .*register weft://127\\.0\\.0\\.1:\\d+/dev\\.weft\\.rpc\\.bootstrap\\.Greeter.*"
                        + "ZooKeeper registry zookeeper://127\\.0\\.0\\.1:1\\?timeout=1000 was never connected.*"
                        + "its node is created once connected");
        assertThat(took).isLessThan(Duration.ofMillis(1000 + 4000));
    }

    @Test
    void refer_failsNamingTheRegistryNeverConnected_withinTheConsumersTimeout() {
        long started = System.nanoTime();
        Throwable thrown = catchThrowable(() -> weft.refer(Greeter.class, "timeout=1500"));
        Duration took = Duration.ofNanos(System.nanoTime() - started);

        assertThat(thrown).isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("no available provider within 1500 ms from registry " + NOWHERE)
                .hasMessageContaining("never connected");
        assertThat(took).isLessThan(Duration.ofMillis(1500 + 4000));
    }

    @Test
    void close_afterAReferAndAnExport_returnsWithoutWaitingForTheRegistry() {
        catchThrowable(() -> weft.refer(Greeter.class, "timeout=200"));
        weft.export(Greeter.class, new NamedGreeter("a"), "weft://127.0.0.1:0");
        long started = System.nanoTime();
        weft.close();
        assertThat(Duration.ofNanos(System.nanoTime() - started)).isLessThan(Duration.ofSeconds(3));
    }
}
