package dev.weft.rpc.tracing.opentelemetry;

import java.util.concurrent.CompletableFuture;

/** The service the tracing tests export and refer. */
public interface Shop {

    /** Answers at once. */
    String greet(String name);

    /** Answers with an {@link IllegalArgumentException} (a business failure). */
    String fail(String name);

    /** Answers at once, asynchronously. */
    CompletableFuture<String> greetAsync(String name);

    /** Answers asynchronously with an {@link IllegalArgumentException} (a business failure). */
    CompletableFuture<String> failAsync(String name);

    /** Answers after about {@code millis}. */
    String sleep(long millis);
}
