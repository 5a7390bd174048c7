package dev.weft.rpc.benchmarks;

/**
 * One side-by-side target of the network benchmark, as a server side and a client side on
 * 127.0.0.1. Each implementation touches only its own framework's classes, so its JVM runs with
 * only that framework's jars on the class path (see {@link NetTarget}).
 */
interface NetSide {

    /** Starts the server side in this JVM; returns its port. */
    int serve();

    /** The client side: one shared connection to {@code port}. */
    Greeter connect(int port);
}
