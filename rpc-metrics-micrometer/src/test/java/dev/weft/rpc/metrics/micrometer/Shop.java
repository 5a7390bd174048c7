package dev.weft.rpc.metrics.micrometer;

import java.util.concurrent.CompletableFuture;

/** The service the metrics tests export and refer. */
public interface Shop {

    /** Answers at once. */
    String greet(String name);

    /** Answers with an {@link IllegalArgumentException} (a business failure). */
    String fail(String name);

    /** Answers once released, or after about 2 s. */
    String hold(String name);

    /** Answers at once, asynchronously. */
    CompletableFuture<String> greetAsync(String name);

    /** Answers asynchronously with an {@link IllegalArgumentException} (a business failure). */
    CompletableFuture<String> failAsync(String name);

    /** Answers asynchronously, when the provider's {@code later} future is completed. */
    CompletableFuture<String> later(String name);
}
