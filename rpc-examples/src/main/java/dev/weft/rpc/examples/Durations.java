package dev.weft.rpc.examples;

import java.util.Locale;

/** Formats latencies for people: {@code 850us}, {@code 1.23ms}, {@code 10.9ms}, {@code 1.20s}. */
final class Durations {

    private Durations() {
    }

    static String format(long nanos) {
        if (nanos < 1_000_000) {
            return String.format(Locale.ROOT, "%dus", nanos / 1_000);
        }
        if (nanos < 10_000_000) {
            return String.format(Locale.ROOT, "%.2fms", nanos / 1e6);
        }
        if (nanos < 1_000_000_000) {
            return String.format(Locale.ROOT, "%.1fms", nanos / 1e6);
        }
        return String.format(Locale.ROOT, "%.2fs", nanos / 1e9);
    }
}
