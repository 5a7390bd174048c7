package dev.weft.rpc.benchmarks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BenchmarkResultsTest {

    private static final Clock CLOCK = Clock.fixed(Instant.parse("2026-12-05T14:31:57.123Z"), ZoneOffset.UTC);

    @TempDir
    Path temp;

    @Test
    void write_withDirectory_writesMetadataAndFiguresInOrder() throws Exception {
        Path loadavg = Files.writeString(temp.resolve("loadavg"), "1.59 2.35 4.52 3/105 11093\n");
        BenchmarkResults results = new BenchmarkResults("network", "NetworkBenchmark", List.of("10", "3"), temp.resolve("out"),
                "abc1234", CLOCK, loadavg);
        results.put("seconds", 10);
        results.add("runs", BenchmarkResults.row("run", 1, "p50Us", 51.5));
        results.add("runs", BenchmarkResults.row("run", 2, "p50Us", 95));

        Optional<Path> written = results.write();

        assertThat(written).contains(temp.resolve("out/network.json"));
        JsonNode json = new ObjectMapper().readTree(written.orElseThrow().toFile());
        JsonNode metadata = json.get("metadata");
        assertThat(metadata.get("benchmark").asText()).isEqualTo("network");
        assertThat(metadata.get("source").asText()).isEqualTo("measured");
        assertThat(metadata.get("runner").asText()).isEqualTo("NetworkBenchmark");
        assertThat(metadata.get("commit").asText()).isEqualTo("abc1234");
        assertThat(metadata.get("started").asText()).isEqualTo("2026-12-05T14:31:57Z");
        assertThat(metadata.get("ended").asText()).isEqualTo("2026-12-05T14:31:57Z");
        assertThat(metadata.get("loadAverageStart").asText()).isEqualTo("1.59 2.35 4.52");
        assertThat(metadata.get("loadAverageEnd").asText()).isEqualTo("1.59 2.35 4.52");
        assertThat(metadata.get("arguments").toString()).isEqualTo("[\"10\",\"3\"]");
        assertThat(metadata.get("cores").asInt()).isEqualTo(Runtime.getRuntime().availableProcessors());
        assertThat(json.get("figures").toString())
                .isEqualTo("{\"seconds\":10,\"runs\":[{\"run\":1,\"p50Us\":51.5},{\"run\":2,\"p50Us\":95}]}");
    }

    @Test
    void write_readsTheLoadAverageAgainAtTheEnd() throws Exception {
        Path loadavg = Files.writeString(temp.resolve("loadavg"), "1.00 2.00 3.00 1/1 1\n");
        BenchmarkResults results = results("hostile-peers", temp, loadavg);
        Files.writeString(loadavg, "7.50 4.00 3.10 1/1 1\n");

        JsonNode metadata = new ObjectMapper().readTree(results.write().orElseThrow().toFile()).get("metadata");

        assertThat(metadata.get("loadAverageStart").asText()).isEqualTo("1.00 2.00 3.00");
        assertThat(metadata.get("loadAverageEnd").asText()).isEqualTo("7.50 4.00 3.10");
        assertThat(metadata.get("commit").asText()).isEqualTo("unknown");
    }

    @Test
    void start_namesTheCallingClassAsTheRunner() throws Exception {
        System.setProperty(BenchmarkResults.DIRECTORY_PROPERTY, temp.toString());
        try {
            Path written = BenchmarkResults.start("registry-routing", "routing", "20").write().orElseThrow();

            JsonNode metadata = new ObjectMapper().readTree(written.toFile()).get("metadata");
            assertThat(metadata.get("runner").asText()).isEqualTo("BenchmarkResultsTest");
            assertThat(metadata.get("arguments").toString()).isEqualTo("[\"routing\",\"20\"]");
        } finally {
            System.clearProperty(BenchmarkResults.DIRECTORY_PROPERTY);
        }
    }

    @Test
    void write_withoutDirectory_writesNothing() throws Exception {
        BenchmarkResults results = results("resilience", null, temp.resolve("none"));
        results.put("seconds", 10);

        assertThat(results.write()).isEmpty();
        try (var files = Files.list(temp)) {
            assertThat(files).isEmpty();
        }
    }

    @Test
    void loadAverage_unreadable_readsUnknown() throws Exception {
        BenchmarkResults results = results("cold-start", temp, temp.resolve("missing"));

        JsonNode metadata = new ObjectMapper().readTree(results.write().orElseThrow().toFile()).get("metadata");

        assertThat(metadata.get("loadAverageStart").asText()).isEqualTo("unknown");
    }

    @Test
    void add_toAFigurePutAsAValue_isRefused() {
        BenchmarkResults results = results("network", null, temp.resolve("none"));
        results.put("runs", 3);

        assertThatThrownBy(() -> results.add("runs", BenchmarkResults.row("run", 1)))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("figure runs: 3 (expected: a list of rows");
    }

    @Test
    void row_withAnOddCountOrANonStringKey_isRefused() {
        assertThatThrownBy(() -> BenchmarkResults.row("run", 1, "p50Us"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("3 arguments");
        assertThatThrownBy(() -> BenchmarkResults.row(1, "run"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("row key 0: 1 (expected: a string)");
    }

    @Test
    void name_thatIsNotAPlainFileName_isRefused() {
        assertThatThrownBy(() -> results("../network", temp, temp.resolve("none")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("benchmark name: ../network (expected:");
    }

    /** Results of {@code name} without arguments or commit, written to {@code directory} ({@code null}: nowhere). */
    private static BenchmarkResults results(String name, Path directory, Path loadavg) {
        return new BenchmarkResults(name, "SomeBenchmark", List.of(), directory, null, CLOCK, loadavg);
    }
}
