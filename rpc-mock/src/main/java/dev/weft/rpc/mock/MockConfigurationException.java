package dev.weft.rpc.mock;

import dev.weft.rpc.mock.internal.MockMessages;

/**
 * A mock configuration that cannot work: a malformed expression, a class that does not exist or
 * has the wrong type, or a value that cannot become a method's return type.
 *
 * <p>Thrown when the mock cluster invoker is created ({@code Cluster.join}); on a later URL update
 * the same error is logged and the update is rejected. The message names the URL key (e.g.
 * {@code sayHello.mock}), the expression, the column and what was expected.
 */
public final class MockConfigurationException extends IllegalArgumentException {

    private static final long serialVersionUID = 1L;

    private final String key;

    public MockConfigurationException(String key, String message) {
        super(message);
        this.key = key;
    }

    public MockConfigurationException(String key, String message, Throwable cause) {
        super(message, cause);
        this.key = key;
    }

    /** The URL key whose value is wrong, e.g. {@code sayHello.mock}; several keys are joined by {@code ", "}. */
    public String getKey() {
        return key;
    }

    /** {@code text} shortened to at most 120 characters for messages, with its full length noted. */
    static String abbreviate(String text) {
        return MockMessages.abbreviate(text);
    }

    /**
     * Builds the standard message {@code key: expression (expected: rule; at column n: detail)}.
     *
     * @param position 0-based index in {@code expression}, or negative for none
     */
    static MockConfigurationException at(String key, String expression, int position, String expected, String detail) {
        return new MockConfigurationException(key, MockMessages.format(key, expression, position, expected, detail));
    }
}
