package dev.weft.rpc.registry;

import dev.weft.rpc.common.URL;
import dev.weft.rpc.protocol.ServiceKey;
import dev.weft.rpc.testing.CapturingLogger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;

/** Several cache instances, in one process or two, writing one file at the same time. */
class RegistryCacheFileSharingTest {

    private static final String SERVICE = "com.example.DemoService";

    @TempDir
    Path dir;

    static ServiceKey service(String group) {
        return ServiceKey.of(URL.valueOf("consumer://10.0.0.9/" + SERVICE + "?group=" + group));
    }

    static URL provider(int port) {
        return URL.valueOf("weft://10.0.0.1:" + port + "/" + SERVICE);
    }

    @Test
    void concurrentSavesAndCloses_ofSeveralInstancesInOneJvm_keepEveryInstancesLastList() throws Exception {
        int rounds = 10;
        int writers = 6;
        ExecutorService pool = Executors.newFixedThreadPool(writers);
        try {
            for (int round = 0; round < rounds; round++) {
                Path file = dir.resolve("round" + round + ".cache");
                CountDownLatch start = new CountDownLatch(1);
                List<Future<Integer>> lastPorts = new ArrayList<>();
                for (int w = 0; w < writers; w++) {
                    ServiceKey service = service("writer" + w);
                    int saves = 50 + 30 * w; // writers finish one after another, while others still write
                    lastPorts.add(pool.submit(() -> {
                        start.await();
                        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
                            for (int port = 1; port <= saves; port++) {
                                cache.save(service, Categories.PROVIDERS, List.of(provider(port)));
                                Thread.sleep(0, 100_000);
                            }
                        }
                        return saves;
                    }));
                }
                start.countDown();
                List<Integer> expected = new ArrayList<>();
                for (Future<Integer> last : lastPorts) {
                    expected.add(last.get(60, TimeUnit.SECONDS));
                }
                try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
                    for (int w = 0; w < writers; w++) {
                        assertThat(cache.load(service("writer" + w), Categories.PROVIDERS))
                                .as("round %d, writer %d", round, w).contains(List.of(provider(expected.get(w))));
                    }
                }
            }
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void load_ofAServiceThisInstanceNeverSaved_seesWhatAnotherInstanceWroteSinceThisOneOpened() {
        Path file = dir.resolve("later.cache");
        try (RegistryCacheFile longLived = new RegistryCacheFile(file)) {
            longLived.save(service("own"), Categories.PROVIDERS, List.of(provider(1)));
            try (RegistryCacheFile other = new RegistryCacheFile(file)) {
                other.save(service("other"), Categories.PROVIDERS, List.of(provider(2)));
                other.save(service("own"), Categories.PROVIDERS, List.of(provider(3)));
            }
            assertThat(longLived.load(service("other"), Categories.PROVIDERS)).contains(List.of(provider(2)));
            // what this instance saved itself is its own latest word
            assertThat(longLived.load(service("own"), Categories.PROVIDERS)).contains(List.of(provider(1)));
        }
    }

    @Test
    void twoProcessesWritingAtTheSameTime_bothKeepTheirLastLists() throws Exception {
        Path file = dir.resolve("two-processes.cache");
        Path stop = dir.resolve("stop");
        Process child = new ProcessBuilder(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"),
                SharedCacheFileWriter.class.getName(), file.toString(), "child", stop.toString())
                .redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        int rounds = 5;
        int saves = 200;
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
            while (!holds(file, "providers " + service("child") + " ") && child.isAlive() && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertThat(holds(file, "providers " + service("child") + " ")).as("the other process writes").isTrue();
            // Each round a new instance in this process writes while the other process keeps writing.
            for (int round = 0; round < rounds; round++) {
                try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
                    for (int port = 1; port <= saves; port++) {
                        cache.save(service("parent" + round), Categories.PROVIDERS, List.of(provider(port)));
                        Thread.sleep(0, 200_000);
                    }
                }
            }
            Thread.sleep(100); // the other process writes on a while after this one's last write
            Files.createFile(stop);
            assertThat(child.waitFor(60, TimeUnit.SECONDS)).as("the other process ends").isTrue();
            assertThat(child.exitValue()).isZero();
            int childLast = Integer.parseInt(new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim());

            try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
                for (int round = 0; round < rounds; round++) {
                    assertThat(cache.load(service("parent" + round), Categories.PROVIDERS)).as("round " + round)
                            .contains(List.of(provider(saves)));
                }
                assertThat(cache.load(service("child"), Categories.PROVIDERS)).contains(List.of(provider(childLast)));
            }
        } finally {
            child.destroyForcibly();
            child.waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aWriterThatCannotTakeTheLock_logsWithTheCount_andWritesEverythingWithItsNextSave() throws Exception {
        Path file = dir.resolve("held.cache");
        CapturingLogger log = new CapturingLogger();
        try (RegistryCacheFile cache = new RegistryCacheFile(file, Duration.ofMillis(50), log)) {
            try (FileChannel channel = FileChannel.open(dir.resolve("held.cache.lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
                 FileLock held = channel.lock()) {
                cache.save(service("a"), Categories.PROVIDERS, List.of(provider(1)));
                awaitLine(log, line -> line.endsWith("(1 failed writes so far)"));
                cache.save(service("b"), Categories.PROVIDERS, List.of(provider(2)));
                awaitLine(log, line -> line.endsWith("(2 failed writes so far)"));
                assertThat(log.lines()).containsExactly(
                        "WARN Registry cache file " + file.toAbsolutePath() + " not written: lock "
                                + dir.resolve("held.cache.lock").toAbsolutePath() + " not taken within 50 ms;"
                                + " this instance keeps its lists and writes them all with its next save or close"
                                + " (1 failed writes so far)",
                        "WARN Registry cache file " + file.toAbsolutePath() + " not written: lock "
                                + dir.resolve("held.cache.lock").toAbsolutePath() + " not taken within 50 ms;"
                                + " this instance keeps its lists and writes them all with its next save or close"
                                + " (2 failed writes so far)");
                assertThat(file).doesNotExist();
            }
            cache.save(service("c"), Categories.PROVIDERS, List.of(provider(3)));
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
            while (!holds(file, "providers " + service("c") + " ") && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
        }
        try (RegistryCacheFile cache = new RegistryCacheFile(file)) {
            assertThat(cache.load(service("a"), Categories.PROVIDERS)).contains(List.of(provider(1)));
            assertThat(cache.load(service("b"), Categories.PROVIDERS)).contains(List.of(provider(2)));
            assertThat(cache.load(service("c"), Categories.PROVIDERS)).contains(List.of(provider(3)));
        }
        assertThat(log.lines()).hasSize(2);
    }

    private static void awaitLine(CapturingLogger log, Predicate<String> line) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (log.lines().stream().noneMatch(line) && System.nanoTime() < deadline) {
            Thread.sleep(5);
        }
    }

    private static boolean holds(Path file, String text) throws Exception {
        return Files.exists(file) && Files.readString(file, StandardCharsets.UTF_8).contains(text);
    }
}
