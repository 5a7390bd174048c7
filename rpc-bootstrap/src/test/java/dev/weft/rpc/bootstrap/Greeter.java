package dev.weft.rpc.bootstrap;

/** The service most bootstrap tests export and refer. */
public interface Greeter {
    String greet(String name);
}
