package dev.weft.rpc.examples;

/**
 * A live provider exported through {@code Weft} on 127.0.0.1 and registered in ZooKeeper, in this
 * JVM or in a child JVM. {@link #close()} releases whatever is left after a kill or a shutdown.
 */
interface ProviderHost extends AutoCloseable {

    /** The provider's name (the suffix of its answers). */
    String name();

    /** The port its server bound (registered in ZooKeeper as 127.0.0.1:port). */
    int port();

    /** Shuts down gracefully: unregisters, drains calls in flight, closes the server. */
    void shutdown();

    /**
     * Dies abruptly: no unregistration, no goodbye to consumers.
     *
     * @throws UnsupportedOperationException when the provider runs in this JVM (only a process can be killed)
     */
    void kill();

    /**
     * Browns the provider out ({@link Brownout}): {@code SLOW} answers 20x slower than its mean latency,
     * {@code FAILING} answers no call before its deadline, {@code NONE} serves as usual.
     */
    void brownout(Brownout.Phase phase);

    /** Whether {@link #kill()} is possible. */
    boolean killable();

    @Override
    void close();
}
