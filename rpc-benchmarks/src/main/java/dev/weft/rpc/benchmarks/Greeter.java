package dev.weft.rpc.benchmarks;

/** The service interface every benchmark calls, identical for Weft and Dubbo. */
public interface Greeter {
    /** Returns a greeting for {@code name}. */
    String greet(String name);
}
