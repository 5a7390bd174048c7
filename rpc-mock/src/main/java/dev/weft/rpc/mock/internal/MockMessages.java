package dev.weft.rpc.mock.internal;

/** The message format of every mock configuration error. Stateless. */
public final class MockMessages {

    private static final int MAX_QUOTED = 120;

    private MockMessages() {
    }

    /** {@code text} shortened to at most 120 characters for messages, with its full length noted. */
    public static String abbreviate(String text) {
        if (text.length() <= MAX_QUOTED) {
            return text;
        }
        return text.substring(0, 100) + "... (" + text.length() + " characters)";
    }

    /**
     * {@code key: expression (expected: rule; at column n: detail)}.
     *
     * @param position 0-based index in {@code expression}, or negative for none
     * @param detail   what was found instead, or {@code null}
     */
    public static String format(String key, String expression, int position, String expected, String detail) {
        StringBuilder sb = new StringBuilder(key).append(": ").append(abbreviate(expression))
                .append(" (expected: ").append(expected);
        if (position >= 0) {
            sb.append("; at column ").append(position + 1);
            if (detail != null) {
                sb.append(": ").append(detail);
            }
        } else if (detail != null) {
            sb.append("; ").append(detail);
        }
        return sb.append(')').toString();
    }
}
