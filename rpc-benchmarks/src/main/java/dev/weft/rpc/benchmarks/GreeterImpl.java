package dev.weft.rpc.benchmarks;

/**
 * The provider implementation behind every in-JVM invoker and the "direct call" baseline:
 * one string concatenation, the smallest body a real service method has. Thread-safe (stateless).
 */
public final class GreeterImpl implements Greeter {
    @Override
    public String greet(String name) {
        return "Hello, " + name;
    }
}
