package dev.weft.rpc.examples;

/** The service the playground's consumers call and its providers serve. */
public interface GreetingService {

    /** Answers {@code name + "@" + providerName}, so the caller can tell a provider's answer from a mock's. */
    String greet(String name);
}
