package dev.weft.rpc.spring.boot;

public interface Greeter {
    String greet(String name);
}
