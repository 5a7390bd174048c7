package dev.weft.rpc.examples;

import dev.weft.rpc.common.RpcException;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLongArray;
import java.util.concurrent.atomic.LongAdder;

/**
 * What the consumer saw in one scenario: each call's outcome and latency. Thread-safe: every
 * call slot is written by exactly one caller, counters are adders, errors are tallied by kind in
 * a map bounded by {@link #MAX_ERROR_KINDS} (beyond it, kinds are counted under "other").
 */
final class CallTally {

    static final int MAX_ERROR_KINDS = 32;
    private static final String OTHER = "other errors";

    /** How a call ended, seen from the caller. */
    enum Outcome {
        /** A provider answered. */
        OK,
        /** The call returned {@code null} (failsafe/failback swallowing a failure, or a mock of null). */
        EMPTY,
        /** The call returned a value no provider produced: a mock's. */
        MOCKED,
        /** The call threw. */
        FAILED
    }

    private final AtomicLongArray latencies;
    private final LongAdder[] outcomes = new LongAdder[Outcome.values().length];
    private final Map<String, ErrorKind> errors = new ConcurrentHashMap<>();

    CallTally(int calls) {
        latencies = new AtomicLongArray(calls);
        for (int i = 0; i < outcomes.length; i++) {
            outcomes[i] = new LongAdder();
        }
    }

    /** Records call number {@code index} (0-based). */
    void record(int index, Outcome outcome, long latencyNanos) {
        latencies.set(index, latencyNanos);
        outcomes[outcome.ordinal()].increment();
    }

    /** Records the throwable of a failed call (after {@link #record}). */
    void error(Throwable error) {
        error(kindOf(error), error.getMessage());
    }

    /** Records one failure of {@code kind}; past {@link #MAX_ERROR_KINDS} kinds, new ones count as "other". */
    void error(String kind, String message) {
        String counted = !errors.containsKey(kind) && errors.size() >= MAX_ERROR_KINDS ? OTHER : kind;
        errors.computeIfAbsent(counted, k -> new ErrorKind(message)).count.increment();
    }

    long count(Outcome outcome) {
        return outcomes[outcome.ordinal()].sum();
    }

    /** The recorded latencies, in call order. */
    long[] latencies() {
        long[] copy = new long[latencies.length()];
        for (int i = 0; i < copy.length; i++) {
            copy[i] = latencies.get(i);
        }
        return copy;
    }

    /** The most frequent error kind with a sample message, or {@code null} when no call failed. */
    ScenarioResult.TopError topError() {
        return errors.entrySet().stream()
                .max((x, y) -> Long.compare(x.getValue().count.sum(), y.getValue().count.sum()))
                .map(e -> new ScenarioResult.TopError(e.getKey(), e.getValue().sample, e.getValue().count.sum()))
                .orElse(null);
    }

    static String kindOf(Throwable error) {
        if (error instanceof RpcException rpc) {
            return error.getClass().getSimpleName() + "(" + codeName(rpc.getCode()) + ")";
        }
        return error.getClass().getName();
    }

    static String codeName(int code) {
        return switch (code) {
            case RpcException.NETWORK_EXCEPTION -> "NETWORK";
            case RpcException.TIMEOUT_EXCEPTION -> "TIMEOUT";
            case RpcException.BIZ_EXCEPTION -> "BIZ";
            case RpcException.FORBIDDEN_EXCEPTION -> "FORBIDDEN";
            case RpcException.SERIALIZATION_EXCEPTION -> "SERIALIZATION";
            case RpcException.NO_INVOKER_AVAILABLE -> "NO_INVOKER_AVAILABLE";
            default -> "UNKNOWN";
        };
    }

    private static final class ErrorKind {
        final String sample;
        final LongAdder count = new LongAdder();

        ErrorKind(String sample) {
            this.sample = sample == null ? "" : sample;
        }
    }
}
