package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ServiceKey;
import dev.weft.rpc.testing.CapturingLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A cache file that cannot be written, or is used after close: what is logged, what is left on disk. */
class RegistryCacheFileFaultsTest {

    private static final String SERVICE = "com.example.DemoService";
    private static final ServiceKey KEY = ServiceKey.of(URL.valueOf("consumer://10.0.0.9/" + SERVICE));
    private static final URL P1 = URL.valueOf("weft://10.0.0.1:1/" + SERVICE);
    private static final URL P2 = URL.valueOf("weft://10.0.0.2:2/" + SERVICE);

    @TempDir
    Path dir;

    private final CapturingLogger log = new CapturingLogger();

    @Test
    void writesThatFail_leaveNoTemporaryFiles_andAreLoggedRateLimitedWithCounts() throws Exception {
        Path file = dir.resolve("blocked.cache");
        try (RegistryCacheFile cache = new RegistryCacheFile(file, Duration.ofSeconds(10), log)) {
            // the cache's path becomes a directory with an entry: it cannot be read or replaced
            Files.createDirectories(file.resolve("entry"));
            for (int failures = 1; failures <= 4; failures++) {
                cache.save(KEY, Categories.PROVIDERS, List.of(failures % 2 == 0 ? P1 : P2));
                awaitFailures(failures);
            }
        } // close: a 5th failure
        try (Stream<Path> files = Files.list(dir)) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("blocked.cache", "blocked.cache.lock");
        }
        assertThat(log.lines()).hasSize(3);
        assertThat(log.lines().get(0)).startsWith("WARN Registry cache file " + file.toAbsolutePath() + " not written: ")
                .endsWith("(1 failed writes so far)");
        assertThat(log.lines().get(1)).endsWith("(2 failed writes so far)");
        assertThat(log.lines().get(2)).endsWith("(4 failed writes so far)");
        assertThat(log.throwables()).isZero();
    }

    /** Waits until {@code n} writes failed; the 3rd is not logged, so it is waited for by time. */
    private void awaitFailures(int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        if (Long.bitCount(n) != 1) {
            Thread.sleep(500);
            return;
        }
        while (log.lines().stream().noneMatch(l -> l.endsWith("(" + n + " failed writes so far)"))
                && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    @Test
    void fileThatIsASymbolicLink_staysOne_theFileItPointsToIsWritten() throws Exception {
        Path target = Files.createDirectories(dir.resolve("volume")).resolve("registry.cache");
        Files.writeString(target, "providers " + KEY + " " + P1.toFullString() + "\n", StandardCharsets.UTF_8);
        Path link = Files.createSymbolicLink(dir.resolve("registry.cache"), target);
        try (RegistryCacheFile cache = new RegistryCacheFile(link)) {
            assertThat(cache.load(KEY, Categories.PROVIDERS)).contains(List.of(P1));
            cache.save(KEY, Categories.PROVIDERS, List.of(P2));
        }
        assertThat(Files.isSymbolicLink(link)).as("still a link").isTrue();
        try (RegistryCacheFile cache = new RegistryCacheFile(target)) {
            assertThat(cache.load(KEY, Categories.PROVIDERS)).contains(List.of(P2));
        }
    }

    @Test
    void forRegistry_withAFileValueThatIsNoPath_isRefused_namingTheKeyValueAndRegistry() {
        URL registry = URL.valueOf("zookeeper://127.0.0.1:2181?file=a%00b");
        assertThatThrownBy(() -> RegistryCacheFile.forRegistry(registry))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("file: a\u0000b (expected: a file path; ")
                .hasMessageEndingWith(") in " + registry);
    }

    @Test
    void saveAfterClose_isNotKept_andIsLoggedRateLimited_withoutAStackTrace() throws Exception {
        Path file = dir.resolve("closed.cache");
        RegistryCacheFile cache = new RegistryCacheFile(file, Duration.ofSeconds(10), log);
        cache.save(KEY, Categories.PROVIDERS, List.of(P1));
        cache.close();
        cache.close();
        for (int i = 0; i < 4; i++) {
            cache.save(KEY, Categories.PROVIDERS, List.of(P2));
        }
        String closed = "WARN Registry cache file " + file.toAbsolutePath() + " is closed: the providers list of "
                + KEY + " is not saved";
        assertThat(log.lines()).containsExactly(closed + " (1 saves after close)", closed + " (2 saves after close)",
                closed + " (4 saves after close)");
        assertThat(log.throwables()).isZero();
        assertThat(cache.load(KEY, Categories.PROVIDERS)).contains(List.of(P1));
        try (RegistryCacheFile reread = new RegistryCacheFile(file)) {
            assertThat(reread.load(KEY, Categories.PROVIDERS)).contains(List.of(P1));
        }
    }
}
