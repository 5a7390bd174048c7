package dev.weft.rpc.testing;

/**
 * A service interface for tests where the service does not matter (balancer tests, say): the
 * type of {@link FakeProvider#named(String)}. Its methods give invocations a real signature.
 */
public interface FakeService {

    /** A call with one argument. */
    String call(String argument);

    /** A call with no argument. */
    void run();
}
