package dev.weft.rpc.benchmarks;

import java.util.concurrent.CompletableFuture;

/** {@link Greeter}'s asynchronous twin, for the network benchmark's {@code weft-async} target. */
public interface AsyncGreeter {
    /** Completes with a greeting for {@code name}. */
    CompletableFuture<String> greet(String name);
}
