package dev.weft.rpc.proxy.isolated;

/** Loaded by throwaway class loaders in the class-loader tests (never by the application loader there). */
public interface Greeter {

    String greet(String name);
}
