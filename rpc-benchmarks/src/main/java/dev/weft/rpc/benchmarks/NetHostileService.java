package dev.weft.rpc.benchmarks;

/** The service of {@link HostilePeersBenchmark}'s provider. */
public interface NetHostileService {

    /** Returns a greeting for {@code name}: the real consumer's call. */
    String greet(String name);

    /** A string of {@code length} characters: large answers on demand. */
    String blob(int length);
}
