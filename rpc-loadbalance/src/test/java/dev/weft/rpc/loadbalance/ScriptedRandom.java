package dev.weft.rpc.loadbalance;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.random.RandomGenerator;

/**
 * A random source that answers bounded draws from a script, so a balancer's picks are an exact,
 * known sequence; it records the bounds it was asked for. Not thread-safe (single-threaded tests).
 */
final class ScriptedRandom implements RandomGenerator {

    private final Queue<Long> bounded = new ArrayDeque<>();
    private final List<Long> bounds = new ArrayList<>();

    /** Bounded draws answer these values, in order. */
    static ScriptedRandom draws(long... values) {
        ScriptedRandom random = new ScriptedRandom();
        for (long value : values) {
            random.bounded.add(value);
        }
        return random;
    }

    /** The bounds of the bounded draws so far. */
    List<Long> bounds() {
        return bounds;
    }

    /** Bounded draws not used yet. */
    int remaining() {
        return bounded.size();
    }

    private long next(long bound) {
        bounds.add(bound);
        Long value = bounded.poll();
        if (value == null) {
            throw new IllegalStateException("draw below " + bound + ": the script is exhausted (after " + bounds.size() + " draws)");
        }
        if (value < 0 || value >= bound) {
            throw new IllegalStateException("scripted draw: " + value + " (expected: below the bound " + bound + ")");
        }
        return value;
    }

    @Override
    public int nextInt(int bound) {
        return (int) next(bound);
    }

    @Override
    public long nextLong(long bound) {
        return next(bound);
    }

    @Override
    public long nextLong() {
        throw new UnsupportedOperationException("unbounded draw: not scripted");
    }
}
