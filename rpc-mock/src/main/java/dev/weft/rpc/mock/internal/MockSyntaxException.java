package dev.weft.rpc.mock.internal;

/**
 * A mock expression that does not parse. The mock invoker reports it as a
 * {@code MockConfigurationException} with the same message, together with the other problems of
 * the URL.
 */
public final class MockSyntaxException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String key;

    public MockSyntaxException(String key, String message) {
        super(message);
        this.key = key;
    }

    /** The URL key whose value does not parse, e.g. {@code sayHello.mock}. */
    public String getKey() {
        return key;
    }
}
