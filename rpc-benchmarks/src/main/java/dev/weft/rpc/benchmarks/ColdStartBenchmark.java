package dev.weft.rpc.benchmarks;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Cold start as JMH sees it: each operation starts a fresh {@code java -cp benchmarks.jar} running
 * {@link WeftColdStart} or {@link DubboColdStart} and waits until it has answered its first call
 * and exited. The score is the whole process; {@link ColdStart} also reports main-to-first-call.
 */
@BenchmarkMode(Mode.SingleShotTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 1)
@Measurement(iterations = 10)
@Fork(1)
public class ColdStartBenchmark {

    @Benchmark
    public long weft() throws IOException, InterruptedException {
        return ColdStart.runOnce(WeftColdStart.class).firstCallNanos();
    }

    @Benchmark
    public long dubbo() throws IOException, InterruptedException {
        return ColdStart.runOnce(DubboColdStart.class).firstCallNanos();
    }
}
