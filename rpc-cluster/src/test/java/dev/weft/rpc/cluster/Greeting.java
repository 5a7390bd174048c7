package dev.weft.rpc.cluster;

/** The service interface of the tests. */
public interface Greeting {
    String hello(String name);

    String bye(String name);
}
