package dev.weft.rpc.protocol;

import java.io.IOException;

/** The service interface of these tests. */
public interface Greeter {

    String greet(String name);

    String farewell(String name);

    /** Declares a checked exception, so throwing it passes the exception filter. */
    String read(String path) throws IOException;
}
