package dev.weft.rpc.benchmarks;

/**
 * Cold start of Dubbo: a fresh JVM runs this {@code main}, builds {@link DubboPipeline} over 10
 * providers and makes the first call. Prints {@code first-call-ns=<nanos from main to answer>}.
 */
public final class DubboColdStart {
    private DubboColdStart() {
    }

    public static void main(String[] args) {
        long start = System.nanoTime();
        String answer = DubboPipeline.build(ColdStart.PROVIDERS).greet("cold");
        long elapsed = System.nanoTime() - start;
        ColdStart.report(answer, elapsed);
    }
}
