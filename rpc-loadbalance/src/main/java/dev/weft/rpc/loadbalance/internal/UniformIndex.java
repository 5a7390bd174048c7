package dev.weft.rpc.loadbalance.internal;

import java.util.random.RandomGenerator;

/**
 * An exactly uniform random index in {@code [0, bound)} from 32-bit draws, by multiplication
 * (Lemire, "Fast Random Integer Generation in an Interval", 2019): the high half of
 * {@code draw × bound} is the index, and the few draws whose low half falls below
 * {@code 2^32 mod bound} are rejected and redrawn.
 *
 * <p>Why not {@code nextInt(bound)}: the JDK's bounded draw divides (a modulo per call), which is
 * a large share of an equal-weights random pick; here the division happens only on the rare
 * rejection path (probability below {@code bound / 2^32}). Stateless and thread-safe; as random as
 * the generator passed in.
 */
public final class UniformIndex {

    private static final long LOW_32 = 0xFFFFFFFFL;

    private UniformIndex() {
    }

    /** A uniform index in {@code [0, bound)}; {@code bound} must be positive. */
    public static int draw(RandomGenerator random, int bound) {
        long product = (random.nextInt() & LOW_32) * bound;
        if ((product & LOW_32) < bound) {
            long threshold = (1L << 32) % bound;
            while ((product & LOW_32) < threshold) {
                product = (random.nextInt() & LOW_32) * bound;
            }
        }
        return (int) (product >>> 32);
    }
}
