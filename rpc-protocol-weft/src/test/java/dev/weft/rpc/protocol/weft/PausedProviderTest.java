package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.common.Invoker;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A provider in a child JVM stopped with SIGSTOP: its kernel still completes TCP handshakes, but
 * the consumer's invoker must not count it as available until it answers; once resumed
 * (SIGCONT) it is available and served again.
 */
@EnabledOnOs({OS.LINUX, OS.MAC})
class PausedProviderTest {

    private static final int HEARTBEAT = 300;

    private static void signal(Process process, String signal) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(process.pid())).inheritIO().start();
        assertThat(kill.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(kill.exitValue()).isZero();
    }

    private static boolean awaitAvailable(Invoker<?> invoker, boolean wanted, long millis) throws InterruptedException {
        long end = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(millis);
        while (invoker.isAvailable() != wanted && System.nanoTime() < end) {
            Thread.sleep(20);
        }
        return invoker.isAvailable() == wanted;
    }

    @Test
    void aStoppedProvider_isNotAvailable_evenThoughItsKernelAcceptsConnections_andIsAgainOnceResumed()
            throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process child = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                ChildProvider.class.getName(), "heartbeat=" + HEARTBEAT))
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        try (Loopback loopback = new Loopback()) {
            BufferedReader out = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8));
            String line = out.readLine();
            assertThat(line).startsWith("PORT ");
            int port = Integer.parseInt(line.substring(5).trim());
            Invoker<Shapes> invoker = loopback.refer(Shapes.class, port, "heartbeat=" + HEARTBEAT + "&timeout=2000");
            Shapes shapes = Loopback.proxy(Shapes.class, invoker);
            assertThat(awaitAvailable(invoker, true, 10_000)).as("available once it answered").isTrue();
            assertThat(shapes.echo("before")).isEqualTo("before");

            signal(child, "STOP");
            // the old connection is closed after 3 silent heartbeats; reconnects (the kernel accepts
            // them) must not make it available
            assertThat(awaitAvailable(invoker, false, 6 * HEARTBEAT + 2_000)).as("unavailable while stopped").isTrue();
            long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
            int availableSamples = 0;
            while (System.nanoTime() < end) {
                if (invoker.isAvailable()) {
                    availableSamples++;
                }
                Thread.sleep(20);
            }
            assertThat(availableSamples).as("samples available while stopped").isZero();

            signal(child, "CONT");
            assertThat(awaitAvailable(invoker, true, 15_000)).as("available again once resumed").isTrue();
            assertThat(shapes.echo("after")).isEqualTo("after");
        } finally {
            signal(child, "CONT");
            child.getOutputStream().close();
            if (!child.waitFor(10, TimeUnit.SECONDS)) {
                child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        }
    }
}
