package dev.weft.rpc.bootstrap;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code closeOnShutdown()}: a JVM stopped by SIGTERM without closing its Weft still closes it. */
class WeftShutdownHookTest {

    @Test
    void closeOnShutdown_aJvmStoppedBySigterm_closesTheWeftsServer() throws Exception {
        Path output = Files.createTempFile("weft-shutdown-hook", ".log");
        try {
            String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
            Process child = new ProcessBuilder(List.of(java, "-Xmx64m", "-cp", System.getProperty("java.class.path"),
                    ShutdownHookMain.class.getName()))
                    .redirectErrorStream(true)
                    .redirectOutput(output.toFile())
                    .start();
            try {
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
                while (!Files.readString(output, StandardCharsets.UTF_8).contains("exported on port")
                        && child.isAlive() && System.nanoTime() < deadline) {
                    Thread.sleep(50);
                }
                child.destroy(); // SIGTERM, as a process manager stops a service
                assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("child exited on SIGTERM").isTrue();
            } finally {
                if (child.isAlive()) {
                    child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
                }
            }
            String log = Files.readString(output, StandardCharsets.UTF_8);

            Matcher exported = Pattern.compile("exported on port (\\d+)").matcher(log);
            assertThat(exported.find()).as(log).isTrue();
            assertThat(log).as("the child's log").contains("weft server on port " + exported.group(1) + " closed");
        } finally {
            Files.deleteIfExists(output);
        }
    }

}
