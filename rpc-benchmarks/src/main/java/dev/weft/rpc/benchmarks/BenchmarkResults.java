package dev.weft.rpc.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * The machine-readable results of one run of a hand-run benchmark, beside the table it prints:
 * with {@code -Dweft.results=DIR}, {@link #write()} writes {@code DIR/<name>.json}, which
 * {@code rpc-benchmarks/src/main/scripts/tables.py} turns into the tables of docs/benchmarks.md.
 * Without the property nothing is written.
 *
 * <p>The file holds {@code metadata} (the benchmark, its arguments, the UTC start and end, the git
 * commit given as {@code -Dweft.commit}, the machine's load average from {@code /proc/loadavg} at
 * the start and at {@link #write()}, the cores and the JVM) and {@code figures}: what the runner
 * {@link #put puts} and the rows it {@link #add adds}, in the order given. Values are what Jackson
 * writes as JSON: numbers, strings, booleans, lists, maps and arrays of them.
 *
 * <p>Thread-safe: every method synchronises on the instance.
 */
public final class BenchmarkResults {

    /** The system property naming the directory the results are written to. */
    public static final String DIRECTORY_PROPERTY = "weft.results";
    /** The system property carrying the commit measured (e.g. {@code $(git rev-parse --short HEAD)}). */
    public static final String COMMIT_PROPERTY = "weft.commit";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final String name;
    private final Path directory;
    private final Clock clock;
    private final Path loadAverageFile;
    private final Map<String, Object> metadata = new LinkedHashMap<>();
    private final Map<String, Object> figures = new LinkedHashMap<>();

    /**
     * Starts the results of benchmark {@code name} run with {@code args} by the calling class, written to the directory
     * of {@code -Dweft.results} (none: not written), with the commit of {@code -Dweft.commit}.
     */
    public static BenchmarkResults start(String name, String... args) {
        String directory = System.getProperty(DIRECTORY_PROPERTY);
        String runner = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE).getCallerClass().getSimpleName();
        return new BenchmarkResults(name, runner, List.of(args),
                directory == null || directory.isBlank() ? null : Path.of(directory),
                System.getProperty(COMMIT_PROPERTY), Clock.systemUTC(), Path.of("/proc/loadavg"));
    }

    /**
     * @param runner the main class's simple name, with {@code args} the command that reproduces the run
     * @param directory where {@link #write()} writes {@code <name>.json}; {@code null}: nowhere
     * @param commit the commit measured; {@code null}: unknown
     * @param loadAverageFile a file in the format of {@code /proc/loadavg}; when unreadable the load reads "unknown"
     * @throws IllegalArgumentException when {@code name} is not a plain file name
     */
    BenchmarkResults(String name, String runner, List<String> args, Path directory, String commit, Clock clock, Path loadAverageFile) {
        this.name = Objects.requireNonNull(name, "name");
        if (!name.matches("[a-z0-9][a-z0-9.-]*")) {
            throw new IllegalArgumentException("benchmark name: " + name + " (expected: lower case letters, digits, '.' and '-')");
        }
        this.directory = directory;
        this.clock = Objects.requireNonNull(clock, "clock");
        this.loadAverageFile = Objects.requireNonNull(loadAverageFile, "loadAverageFile");
        metadata.put("benchmark", name);
        metadata.put("source", "measured");
        metadata.put("runner", Objects.requireNonNull(runner, "runner"));
        metadata.put("arguments", List.copyOf(args));
        metadata.put("started", now());
        metadata.put("commit", commit == null || commit.isBlank() ? "unknown" : commit.strip());
        metadata.put("loadAverageStart", loadAverage());
        metadata.put("cores", Runtime.getRuntime().availableProcessors());
        metadata.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
        metadata.put("jvmArguments", ManagementFactory.getRuntimeMXBean().getInputArguments());
    }

    /** Sets figure {@code key} to {@code value}, replacing an earlier one. */
    public synchronized BenchmarkResults put(String key, Object value) {
        figures.put(Objects.requireNonNull(key, "key"), value);
        return this;
    }

    /** Appends {@code row} to the list of figures {@code key}. */
    public synchronized BenchmarkResults add(String key, Map<String, ?> row) {
        Object list = figures.computeIfAbsent(Objects.requireNonNull(key, "key"), k -> new ArrayList<>());
        if (!(list instanceof List<?>)) {
            throw new IllegalStateException("figure " + key + ": " + list + " (expected: a list of rows, not a value put)");
        }
        @SuppressWarnings("unchecked")
        List<Object> rows = (List<Object>) list;
        rows.add(new LinkedHashMap<>(Objects.requireNonNull(row, "row")));
        return this;
    }

    /**
     * An ordered row from alternating keys and values: {@code row("config", "p2c", "p99Ms", 8.3)}.
     *
     * @throws IllegalArgumentException when the count is odd or a key is not a string
     */
    public static Map<String, Object> row(Object... keysAndValues) {
        if (keysAndValues.length % 2 != 0) {
            throw new IllegalArgumentException("row: " + keysAndValues.length + " arguments (expected: key, value pairs)");
        }
        Map<String, Object> row = new LinkedHashMap<>();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (!(keysAndValues[i] instanceof String key)) {
                throw new IllegalArgumentException("row key " + i / 2 + ": " + keysAndValues[i] + " (expected: a string)");
            }
            row.put(key, keysAndValues[i + 1]);
        }
        return row;
    }

    /**
     * Ends the run (end time, load average) and writes {@code DIR/<name>.json}, creating the
     * directory; returns the file written, or empty when no directory was given.
     *
     * @throws IOException when the file cannot be written
     */
    public synchronized Optional<Path> write() throws IOException {
        metadata.put("ended", now());
        metadata.put("loadAverageEnd", loadAverage());
        if (directory == null) {
            return Optional.empty();
        }
        Files.createDirectories(directory);
        Path file = directory.resolve(name + ".json");
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("metadata", metadata);
        document.put("figures", figures);
        Files.writeString(file, JSON.writeValueAsString(document) + "\n", StandardCharsets.UTF_8);
        System.out.println("results written to " + file);
        return Optional.of(file);
    }

    private String now() {
        return Instant.now(clock).truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** The 1, 5 and 15 minute load averages, space-separated. */
    private String loadAverage() {
        try {
            String[] fields = Files.readString(loadAverageFile, StandardCharsets.US_ASCII).strip().split("\\s+");
            return fields.length < 3 ? "unknown" : String.join(" ", fields[0], fields[1], fields[2]);
        } catch (IOException e) {
            return "unknown";
        }
    }
}
