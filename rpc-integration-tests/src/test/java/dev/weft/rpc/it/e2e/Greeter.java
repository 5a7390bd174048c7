package dev.weft.rpc.it.e2e;

/** The service of the end-to-end tests. Public so both proxy factories can implement it. */
public interface Greeter {

    String greet(String name);

    int add(int a, int b);
}
