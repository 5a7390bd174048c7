package dev.weft.rpc.it.zk;

import dev.weft.rpc.common.URL;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A {@link ProviderMain} running in its own JVM, started from this JVM's class path. {@link #close()}
 * always leaves no process behind: it kills what is still alive and waits for it.
 */
final class ProviderProcess implements AutoCloseable {

    private static final Duration EXIT_WAIT = Duration.ofSeconds(15);

    private final String id;
    private final Process process;
    private final Path stderr;
    private final CompletableFuture<URL> ready = new CompletableFuture<>();

    private ProviderProcess(String id, Process process, Path stderr) {
        this.id = id;
        this.process = process;
        this.stderr = stderr;
        Thread reader = new Thread(this::readStdout, "provider-" + id + "-stdout");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts provider {@code id} registering in {@code registryUrl}; does not wait for it. */
    static ProviderProcess start(String registryUrl, String id) throws IOException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path stderr = Files.createTempFile("weft-provider-" + id, ".err");
        ProcessBuilder builder = new ProcessBuilder(List.of(java.toString(), "-Xmx96m", "-XX:TieredStopAtLevel=1",
                "-XX:+UseSerialGC", "-Duser.language=tr", "-Duser.country=TR",
                "-cp", System.getProperty("java.class.path"), ProviderMain.class.getName(), registryUrl, id));
        builder.redirectError(stderr.toFile());
        return new ProviderProcess(id, builder.start(), stderr);
    }

    /** The URL the provider registered, once it says it is ready. */
    URL awaitReady(Duration timeout) throws InterruptedException {
        try {
            return ready.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            throw new IllegalStateException("provider " + id + ": not ready within " + timeout + " (alive: "
                    + process.isAlive() + ", stderr: " + stderrTail() + ")", e);
        }
    }

    /** kill -9: no unregistering, no goodbye to consumers; the registry notices when the session expires. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** Closes the provider's standard input: it unregisters and unexports gracefully, then exits. */
    int stopGracefully(Duration timeout) throws IOException, InterruptedException {
        process.getOutputStream().close();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException("provider " + id + ": still running " + timeout + " after stop");
        }
        return process.exitValue();
    }

    boolean isAlive() {
        return process.isAlive();
    }

    String id() {
        return id;
    }

    @Override
    public void close() {
        try {
            if (process.isAlive()) {
                process.destroyForcibly();
            }
            process.waitFor(EXIT_WAIT.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            try {
                Files.deleteIfExists(stderr);
            } catch (IOException ignored) {
                // a temporary file left behind is harmless
            }
        }
    }

    private void readStdout() {
        try (BufferedReader out = new BufferedReader(
                new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = out.readLine()) != null) {
                if (line.startsWith(ProviderMain.READY)) {
                    ready.complete(URL.valueOf(line.substring(ProviderMain.READY.length())));
                }
            }
            ready.completeExceptionally(new IllegalStateException("provider " + id + " exited before it was ready"));
        } catch (IOException | RuntimeException e) {
            ready.completeExceptionally(e);
        }
    }

    private String stderrTail() {
        try {
            String text = Files.readString(stderr);
            return text.length() > 2_000 ? "..." + text.substring(text.length() - 2_000) : text;
        } catch (IOException e) {
            return "unreadable: " + e;
        }
    }
}
