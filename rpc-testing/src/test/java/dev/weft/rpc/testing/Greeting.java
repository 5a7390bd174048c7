package dev.weft.rpc.testing;

/** The service the kit's own tests fake. */
public interface Greeting {

    String greet(String name);

    String greet(String name, String language);

    int count();
}
