package dev.weft.rpc.examples;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.TimeUnit;

/**
 * A provider in a child JVM ({@link ProviderProcess}) started from this JVM's class path: it can be
 * killed for real ({@link Process#destroyForcibly()}, SIGKILL on Unix), its ZooKeeper session then
 * expiring on the server's clock. The child's stderr goes to the discard device, its stdout is read
 * for the ready line only.
 */
final class ChildProcessProvider implements ProviderHost {

    static final long START_TIMEOUT_SECONDS = 60;
    private static final long EXIT_TIMEOUT_SECONDS = 20;

    private final String name;
    private final Process process;
    private final int port;

    private ChildProcessProvider(String name, Process process, int port) {
        this.name = name;
        this.process = process;
        this.port = port;
    }

    /** Starts the child and waits for its ready line (at most {@link #START_TIMEOUT_SECONDS}). */
    static ChildProcessProvider start(ProviderSpec spec, String registryUrl, long seed) throws InterruptedException {
        Objects.requireNonNull(spec, "spec");
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx128m",
                "-cp", System.getProperty("java.class.path"),
                ProviderProcess.class.getName(), registryUrl, ProviderSpecParser.format(spec), Long.toString(seed)));
        Process process;
        try {
            process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        } catch (IOException e) {
            throw new UncheckedIOException("provider " + spec.name() + ": cannot start a JVM (" + e + ")", e);
        }
        try {
            return new ChildProcessProvider(spec.name(), process, awaitReady(spec.name(), process));
        } catch (RuntimeException | InterruptedException e) {
            process.destroyForcibly();
            throw e;
        }
    }

    private static int awaitReady(String name, Process process) throws InterruptedException {
        BufferedReader lines = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
        Thread reader = Thread.currentThread();
        Thread watchdog = new Thread(() -> {
            try {
                if (!process.waitFor(START_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    process.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "playground-provider-" + name + "-watchdog");
        watchdog.setDaemon(true);
        watchdog.start();
        try {
            String line = lines.readLine();
            if (line == null || !line.startsWith(ProviderProcess.READY)) {
                throw new IllegalStateException(String.format(Locale.ROOT,
                        "provider %s: the child JVM did not start (exit %s, first line %s)", name,
                        process.isAlive() ? "none yet" : process.exitValue(), line));
            }
            return Integer.parseInt(line.substring(ProviderProcess.READY.length()).trim());
        } catch (IOException e) {
            throw new UncheckedIOException("provider " + name + ": reading the child's ready line", e);
        } finally {
            watchdog.interrupt();
            if (reader.isInterrupted()) {
                throw new InterruptedException("provider " + name + ": interrupted while starting");
            }
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public int port() {
        return port;
    }

    @Override
    public void shutdown() {
        try {
            process.getOutputStream().close();
            if (!process.waitFor(EXIT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (IOException e) {
            process.destroyForcibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /** Tells the child its brownout phase: one command byte on its stdin ({@link ProviderProcess#command}). */
    @Override
    public void brownout(Brownout.Phase phase) {
        try {
            process.getOutputStream().write(ProviderProcess.command(phase));
            process.getOutputStream().flush();
        } catch (IOException e) {
            throw new UncheckedIOException("provider " + name + ": cannot reach the child JVM (" + e + ")", e);
        }
    }

    @Override
    public void kill() {
        process.destroyForcibly();
        try {
            process.waitFor(EXIT_TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public boolean killable() {
        return true;
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }
}
