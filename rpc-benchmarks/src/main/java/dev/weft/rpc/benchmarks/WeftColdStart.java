package dev.weft.rpc.benchmarks;

/**
 * Cold start of Weft: a fresh JVM runs this {@code main}, builds {@link WeftPipeline} over 10
 * providers and makes the first call. Prints {@code first-call-ns=<nanos from main to answer>}.
 */
public final class WeftColdStart {
    private WeftColdStart() {
    }

    public static void main(String[] args) {
        long start = System.nanoTime();
        String answer = WeftPipeline.build(ColdStart.PROVIDERS).greet("cold");
        long elapsed = System.nanoTime() - start;
        ColdStart.report(answer, elapsed);
    }
}
