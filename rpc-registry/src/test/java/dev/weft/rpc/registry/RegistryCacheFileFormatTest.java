package dev.weft.rpc.registry;

import com.google.common.primitives.Bytes;
import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ServiceKey;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** What the cache file writes, and that a new instance reads back exactly what the last one saved. */
class RegistryCacheFileFormatTest {

    private static final String SERVICE = "com.example.DemoService";
    private static final ServiceKey KEY = ServiceKey.of(URL.valueOf("consumer://10.0.0.9/" + SERVICE));
    private static final ServiceKey BLUE = ServiceKey.of(URL.valueOf("consumer://10.0.0.9/" + SERVICE + "?group=blue"));
    private static final URL P1 = URL.valueOf("weft://10.0.0.1:1/" + SERVICE + "?weight=100&timeout=5");
    private static final URL P2 = URL.valueOf("weft://10.0.0.2:2/" + SERVICE);

    @TempDir
    Path dir;

    @Test
    void close_writesOneLinePerUrl_andOneLineForAnEmptyList_sortedByCategoryAndService() throws Exception {
        Path file = dir.resolve("nested/deeper/registry.cache");
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            cache.save(KEY, Categories.PROVIDERS, List.of(P1, P2));
            cache.save(KEY, Categories.CONFIGURATORS, List.of());
            cache.save(BLUE, Categories.PROVIDERS, List.of(P2));
        }

        List<String> lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        assertThat(lines.get(0)).startsWith("# ");
        assertThat(lines.subList(1, lines.size())).containsExactly(
                "configurators " + KEY,
                "providers " + BLUE + " " + P2.toFullString(),
                "providers " + KEY + " " + P1.toFullString(),
                "providers " + KEY + " " + P2.toFullString());
        try (Stream<Path> files = Files.list(dir.resolve("nested/deeper"))) {
            assertThat(files.map(p -> p.getFileName().toString()))
                    .containsExactlyInAnyOrder("registry.cache", "registry.cache.lock");
        }
    }

    @Test
    void save_isWrittenWithoutWaitingForClose() throws Exception {
        Path file = dir.resolve("eager.cache");
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            cache.save(KEY, Categories.PROVIDERS, List.of(P1));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!containsLineFor(file, P1) && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(containsLineFor(file, P1)).as("written while the file is open").isTrue();
        }
    }

    private static boolean containsLineFor(Path file, URL url) throws Exception {
        return Files.exists(file) && Files.readAllLines(file, StandardCharsets.UTF_8)
                .contains("providers " + KEY + " " + url.toFullString());
    }

    @Test
    void aNewInstance_readsBackWhatTheLastOneSaved() {
        Path file = dir.resolve("registry.cache");
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            cache.save(KEY, Categories.PROVIDERS, List.of(P1));
            cache.save(KEY, Categories.PROVIDERS, List.of(P1, P2));
            cache.save(KEY, Categories.CONFIGURATORS, List.of());
            assertThat(cache.load(KEY, Categories.PROVIDERS)).contains(List.of(P1, P2));
        }
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            assertThat(cache.load(KEY, Categories.PROVIDERS)).contains(List.of(P1, P2));
            assertThat(cache.load(KEY, Categories.CONFIGURATORS)).contains(List.of());
            assertThat(cache.load(BLUE, Categories.PROVIDERS)).isEmpty();
            assertThat(cache.getPath()).isEqualTo(file.toAbsolutePath());
            assertThat(cache).hasToString("RegistryCacheFile[" + file.toAbsolutePath() + "]");
        }
    }

    @Test
    void instancesSharingAFile_keepEachOthersServices_andLastLists_afterConcurrentSaves() throws Exception {
        Path file = dir.resolve("shared.cache");
        int writers = 4;
        int saves = 200;
        List<RegistryCacheFile> caches = new ArrayList<>();
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            List<Future<?>> done = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                RegistryCacheFile cache = new RegistryCacheFile(file);
                caches.add(cache);
                ServiceKey service = serviceOfWriter(w);
                done.add(pool.submit(() -> {
                    for (int i = 1; i <= saves; i++) {
                        cache.save(service, Categories.PROVIDERS,
                                List.of(URL.valueOf("weft://10.0.0.1:" + i + "/" + SERVICE)));
                    }
                }));
            }
            for (Future<?> future : done) {
                future.get(30, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
            caches.forEach(RegistryCacheFile::close);
        }
        // Each write reads, merges and replaces the file under a lock shared by every instance, so
        // no instance's latest list is lost; RegistryCacheFileSharingTest also closes the instances
        // concurrently, in one process and in two.
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            for (int w = 0; w < writers; w++) {
                assertThat(cache.load(serviceOfWriter(w), Categories.PROVIDERS)).as("writer " + w)
                        .contains(List.of(URL.valueOf("weft://10.0.0.1:" + saves + "/" + SERVICE)));
            }
        }
    }

    private static ServiceKey serviceOfWriter(int writer) {
        return ServiceKey.of(URL.valueOf("consumer://10.0.0.9/" + SERVICE + "?group=writer" + writer));
    }

    @Test
    void serviceKeysWithSpacesPercentsOrLineBreaks_readBackAsSaved_andPlainKeysAreWrittenAsThemselves() throws Exception {
        Path file = dir.resolve("odd-keys.cache");
        ServiceKey spaced = ServiceKey.of(URL.valueOf("consumer://10.0.0.9/" + SERVICE + "?group=blue+team&version=1%25"));
        ServiceKey broken = ServiceKey.of(URL.valueOf("consumer://10.0.0.9/" + SERVICE + "?group=a%0Ab%2Bc"));
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            cache.save(spaced, Categories.PROVIDERS, List.of(P1));
            cache.save(broken, Categories.PROVIDERS, List.of(P2));
            cache.save(BLUE, Categories.PROVIDERS, List.of(P2));
        }
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            assertThat(cache.load(spaced, Categories.PROVIDERS)).contains(List.of(P1));
            assertThat(cache.load(broken, Categories.PROVIDERS)).contains(List.of(P2));
            assertThat(cache.load(BLUE, Categories.PROVIDERS)).contains(List.of(P2));
        }
        assertThat(Files.readAllLines(file, StandardCharsets.UTF_8))
                .contains("providers " + BLUE + " " + P2.toFullString());
    }

    @Test
    void savedList_isACopy_laterChangesToTheCallersListDoNotLeakIn() {
        try (RegistryCacheFile cache = new RegistryCacheFile(dir.resolve("copy.cache"))) {
            List<URL> urls = new ArrayList<>(List.of(P1));
            cache.save(KEY, Categories.PROVIDERS, urls);
            urls.add(P2);
            assertThat(cache.load(KEY, Categories.PROVIDERS)).contains(List.of(P1));
        }
    }

    @Test
    void blankLinesCommentsAndSurroundingSpaces_areIgnored() throws Exception {
        Path file = dir.resolve("spaced.cache");
        Files.writeString(file, "\n   \n  # a comment\n  providers " + KEY + " " + P2.toFullString() + "  \n",
                StandardCharsets.UTF_8);
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            assertThat(cache.load(KEY, Categories.PROVIDERS)).contains(List.of(P2));
        }
    }

    @Test
    void lineThatIsNotUtf8_isSkipped_theOthersLoaded() throws Exception {
        Path file = dir.resolve("corrupt.cache");
        byte[] good1 = ("providers " + KEY + " " + P1.toFullString() + "\n").getBytes(StandardCharsets.UTF_8);
        byte[] corrupt = {'p', 'r', 'o', (byte) 0xFF, (byte) 0xFE, 0, (byte) 0xC3, '\n'};
        byte[] good2 = ("providers " + BLUE + " " + P2.toFullString()).getBytes(StandardCharsets.UTF_8);
        Files.write(file, Bytes.concat(good1, corrupt, good2));
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            assertThat(cache.load(KEY, Categories.PROVIDERS)).contains(List.of(P1));
            assertThat(cache.load(BLUE, Categories.PROVIDERS)).contains(List.of(P2));
        }
    }

    @Test
    void fileThatCannotBeRead_isRefused_namingIt() throws Exception {
        Path directory = Files.createDirectories(dir.resolve("a-directory"));
        assertThatThrownBy(() -> new RegistryCacheFile(directory))
                .isInstanceOf(UncheckedIOException.class)
                .hasMessage("Registry cache file " + directory.toAbsolutePath() + " cannot be read");
    }
}
