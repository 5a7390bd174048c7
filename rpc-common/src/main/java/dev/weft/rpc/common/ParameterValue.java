package dev.weft.rpc.common;

import java.util.Locale;

/**
 * One URL parameter value with its typed forms parsed once, on first use, then cached.
 *
 * <p>Thread-safe: the cache is a racy single-check of an immutable box, so two threads may both
 * parse the first time, but every thread sees a correct value.
 */
final class ParameterValue {

    final String key;
    final String raw;
    private final URL owner;
    private Object parsed;

    ParameterValue(String key, String raw, URL owner) {
        this.key = key;
        this.raw = raw;
        this.owner = owner;
    }

    static String asString(ParameterValue value, String defaultValue) {
        return value == null || value.raw.isEmpty() ? defaultValue : value.raw;
    }

    static int asInt(ParameterValue value, int defaultValue) {
        if (value == null || value.raw.isEmpty()) {
            return defaultValue;
        }
        long parsed = value.longValue();
        if (parsed < Integer.MIN_VALUE || parsed > Integer.MAX_VALUE) {
            throw value.invalid("an integer between " + Integer.MIN_VALUE + " and " + Integer.MAX_VALUE);
        }
        return (int) parsed;
    }

    static long asLong(ParameterValue value, long defaultValue) {
        if (value == null || value.raw.isEmpty()) {
            return defaultValue;
        }
        return value.longValue();
    }

    /** The value as a long, parsed on first use; ints and longs share this one cached box. */
    private long longValue() {
        Object p = parsed;
        if (p instanceof Long) {
            return (Long) p;
        }
        long result;
        try {
            result = Long.parseLong(raw.trim());
        } catch (NumberFormatException e) {
            throw invalid("an integer");
        }
        parsed = result;
        return result;
    }

    static boolean asBoolean(ParameterValue value, boolean defaultValue) {
        if (value == null || value.raw.isEmpty()) {
            return defaultValue;
        }
        Object p = value.parsed;
        if (p instanceof Boolean) {
            return (Boolean) p;
        }
        String lower = value.raw.trim().toLowerCase(Locale.ROOT);
        Boolean boxed;
        if (lower.equals("true")) {
            boxed = Boolean.TRUE;
        } else if (lower.equals("false")) {
            boxed = Boolean.FALSE;
        } else {
            throw value.invalid("true or false");
        }
        value.parsed = boxed;
        return boxed;
    }

    private IllegalArgumentException invalid(String expected) {
        return new IllegalArgumentException("URL parameter " + key + ": " + raw + " (expected: " + expected
                + ") in " + owner);
    }
}
