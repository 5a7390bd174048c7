package dev.weft.rpc.examples;

import java.util.concurrent.CompletableFuture;

/** The tour's asynchronous service: the proxy returns at once, the future completes with the answer. */
public interface AsyncGreetingService {

    /** Completes with {@code name + "@" + providerName}, like {@link GreetingService#greet}. */
    CompletableFuture<String> greet(String name);
}
