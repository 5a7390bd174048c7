package dev.weft.rpc.examples.spring.bars;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The results of one {@link Bars} run as JSON, in the format of rpc-benchmarks' hand-run
 * benchmarks ({@code metadata} and {@code figures}), so that
 * {@code rpc-benchmarks/src/main/scripts/tables.py} renders them: with {@code -Dweft.results=DIR}
 * (and {@code -Dweft.commit=...}) {@link #write()} writes {@code DIR/spring-boot.json}; without
 * it, nothing. Not thread-safe: used by the harness's main thread only.
 */
final class BarsResults {

    private final Map<String, Object> metadata = new LinkedHashMap<>();
    private final List<Map<String, Object>> rounds = new ArrayList<>();

    BarsResults(String[] args) {
        metadata.put("benchmark", "spring-boot");
        metadata.put("source", "measured");
        metadata.put("runner", "Bars");
        metadata.put("arguments", List.of(args));
        metadata.put("started", now());
        metadata.put("commit", System.getProperty("weft.commit", "unknown"));
        metadata.put("loadAverageStart", loadAverage());
        metadata.put("cores", Runtime.getRuntime().availableProcessors());
        metadata.put("jvm", System.getProperty("java.vm.name") + " " + System.getProperty("java.runtime.version"));
    }

    /** Adds one round of one stack. */
    void add(int round, String stack, Bars.Figures figures) {
        Map<String, Object> row = new LinkedHashMap<>();
        row.put("round", round);
        row.put("stack", stack);
        row.put("startMs", figures.startMillis());
        row.put("heapMib", figures.heapKib() / 1024.0);
        row.put("requestsPerS", figures.requestsPerSecond());
        row.put("errorAnswers", figures.errorAnswers());
        row.put("ioFailures", figures.ioFailures());
        row.put("loadAverage", figures.loadAverage());
        rounds.add(row);
    }

    /** Writes {@code DIR/spring-boot.json} when {@code -Dweft.results=DIR} is set. */
    void write() throws IOException {
        metadata.put("ended", now());
        metadata.put("loadAverageEnd", loadAverage());
        String directory = System.getProperty("weft.results");
        if (directory == null || directory.isBlank()) {
            return;
        }
        Path file = Files.createDirectories(Path.of(directory)).resolve("spring-boot.json");
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("metadata", metadata);
        document.put("figures", Map.of("rounds", rounds));
        Files.writeString(file, new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT).writeValueAsString(document) + "\n",
                StandardCharsets.UTF_8);
        System.out.println("results written to " + file);
    }

    private static String now() {
        return Instant.now().truncatedTo(ChronoUnit.SECONDS).toString();
    }

    /** The 1, 5 and 15 minute load averages of {@code /proc/loadavg}, or "unknown". */
    private static String loadAverage() {
        try {
            String[] fields = Files.readString(Path.of("/proc/loadavg"), StandardCharsets.US_ASCII).strip().split("\\s+");
            return String.join(" ", fields[0], fields[1], fields[2]);
        } catch (IOException | RuntimeException e) {
            return "unknown";
        }
    }
}
