package dev.weft.rpc.benchmarks;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;

/**
 * Runs JMH with the given options and keeps its JSON result as the {@code jmh} figure of a
 * {@link BenchmarkResults} file, so a JMH run carries the same metadata (date, commit, load
 * average, cores, JVM, arguments) as the hand-run benchmarks.
 *
 * <pre>java -Dweft.results=DIR -Dweft.commit=... -cp rpc-benchmarks/target/benchmarks.jar dev.weft.rpc.benchmarks.JmhRun
 *     NAME [JMH options, e.g. PipelineBenchmark -f 1 -wi 3 -i 5 -prof gc]</pre>
 *
 * <p>Writes {@code DIR/NAME.json}; JMH's own result goes to a temporary file first.
 */
public final class JmhRun {

    private JmhRun() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            throw new IllegalArgumentException("arguments: none (expected: a results name, then JMH's options)");
        }
        String[] jmhArgs = Arrays.copyOfRange(args, 1, args.length);
        BenchmarkResults results = BenchmarkResults.start(args[0], jmhArgs);
        Path json = Files.createTempFile("jmh-" + args[0], ".json");
        try {
            new Runner(new OptionsBuilder().parent(new CommandLineOptions(jmhArgs))
                    .resultFormat(ResultFormatType.JSON).result(json.toString()).build()).run();
            results.put("jmh", new ObjectMapper().readTree(json.toFile()));
        } finally {
            Files.deleteIfExists(json);
        }
        results.write();
    }
}
