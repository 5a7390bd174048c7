package dev.weft.rpc.examples.spring.api;

/** The service the provider app exports and the consumer app calls. */
public interface GreetingService {

    String greet(String name);
}
