package dev.weft.rpc.bootstrap;

import dev.weft.rpc.spi.ExtensionDirector;
import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.UUID;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A {@code build()} that fails releases what it created and throws the original error. */
class WeftBuildTest {

    @Test
    void build_whenTheRegistryFactoryRejectsTheUrl_closesTheDirectorItCreated_andRethrows() throws InterruptedException {
        String tag = UUID.randomUUID().toString();

        assertThatThrownBy(() -> Weft.builder().registry("threads://127.0.0.1?reject=true&tag=" + tag).build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("reject: true (expected: false)");

        assertThat(threadGone(ThreadOwningRegistryFactory.THREAD_PREFIX + tag))
                .as("the registry factory's worker, stopped by closing the director the failed build created")
                .isTrue();
    }

    @Test
    void build_withAnUnknownRegistryScheme_failsNamingTheKnownSchemes() {
        assertThatThrownBy(() -> Weft.builder().registry("zk://127.0.0.1:2181").build())
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("registry: zk://127.0.0.1:2181")
                .hasMessageContaining("zookeeper");
    }

    @Test
    void builder_withAClosedDirector_failsAtOnce() {
        ExtensionDirector director = new ExtensionDirector(getClass().getClassLoader());
        director.close();

        assertThatThrownBy(() -> Weft.builder().director(director))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("director: ")
                .hasMessageContaining("(expected: an open director)");
    }

    @Test
    void builder_withAHostNoUrlCanCarry_failsAtOnce_namingIt() {
        assertThatThrownBy(() -> Weft.builder().host("shop host"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("host: 'shop host' (expected: ");
    }

    @Test
    void build_withAnUnknownRegistryKey_warnsNamingTheClosestKnownKey() {
        PrintStream stderr = System.err;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setErr(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            Weft.builder().registry("memory://warned?sesion=5000").build().close();
        } finally {
            System.setErr(stderr);
        }

        assertThat(captured.toString(StandardCharsets.UTF_8)).contains("sesion (did you mean 'session'?)");
    }

    private static boolean threadGone(String name) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (System.nanoTime() < deadline) {
            if (Thread.getAllStackTraces().keySet().stream().noneMatch(t -> t.isAlive() && t.getName().equals(name))) {
                return true;
            }
            Thread.sleep(20);
        }
        return false;
    }
}
