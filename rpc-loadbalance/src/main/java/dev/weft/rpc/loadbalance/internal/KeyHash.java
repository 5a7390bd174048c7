package dev.weft.rpc.loadbalance.internal;

/**
 * Weft key hash v2: a 64-bit hash of strings that is stable across JVMs, platforms and versions
 * (it depends only on the UTF-16 code units of the text, never on {@code String.hashCode()} or on
 * identity hashes). Used by {@code consistenthash} for ring points and call keys.
 *
 * <p>Definition. {@code fold(a, b)} is the signed 128-bit product of {@code a} and {@code b}, its
 * low 64 bits XOR its high 64 bits (in Java {@code a * b ^ Math.multiplyHigh(a, b)}). A key is a
 * sequence of 64-bit words: a string contributes its length, then its code units four per word,
 * little-endian (unit {@code j} of a word at bits {@code 16j}), the last word zero-padded; a
 * {@code null} value contributes the word {@code -1}, an absent argument the word {@code -2}; each
 * value's words are followed by {@code 0} words up to a multiple of three, so a value always fills
 * whole triples. The state starts at {@code h = 0x9E3779B97F4A7C15}; each triple of words
 * {@code (a, b, c)}, in order, gives
 * {@code h = fold(a ^ 0x6A09E667F3BCC908, b ^ 0xBB67AE8584CAA73B) ^ fold(c ^ 0x3C6EF372FE94F82B, h ^ 0xA54FF53A5F1D36F1)}
 * (the constants are the first 64 fractional bits of √2, √3, √5 and √7); the hash is the final
 * {@code h}. Length words make a sequence of values unambiguous: ("ab","c") and ("a","bc") hash
 * differently.
 *
 * <p>Why this shape: the two products of a step are independent, so a step costs the latency of
 * one multiply, and a key of up to 8 code units (the length word and two unit words) is one
 * step; that latency is most of what a consistent-hash pick costs. Like every 64-bit hash it has
 * collisions; it is not meant to resist keys crafted to collide.
 *
 * <p>Stateless and thread-safe; no allocation for {@code String} arguments.
 */
public final class KeyHash {

    private static final long SEED = 0x9E3779B97F4A7C15L;
    /** First 64 fractional bits of √2, √3, √5, √7: whitening of the three words and of the state. */
    private static final long FIRST = 0x6A09E667F3BCC908L;
    private static final long SECOND = 0xBB67AE8584CAA73BL;
    private static final long THIRD = 0x3C6EF372FE94F82BL;
    private static final long STATE = 0xA54FF53A5F1D36F1L;
    private static final long NULL_VALUE = -1;
    private static final long ABSENT_VALUE = -2;

    private KeyHash() {
    }

    /** The hash of one string (ring points; call keys go through {@link #ofArguments}). */
    public static long of(String text) {
        return absorbAny(SEED, text);
    }

    /**
     * The hash of the arguments at {@code indexes} ({@code String.valueOf} of each; a missing index
     * counts as absent, {@code null} as null).
     */
    public static long ofArguments(Object[] arguments, int[] indexes) {
        if (indexes.length == 1 && arguments != null && indexes[0] < arguments.length
                && arguments[indexes[0]] instanceof String) {
            return absorb(SEED, (String) arguments[indexes[0]]);
        }
        long h = SEED;
        int available = arguments == null ? 0 : arguments.length;
        for (int index : indexes) {
            if (index >= available) {
                h = step(h, ABSENT_VALUE, 0, 0);
            } else {
                h = arguments[index] == null ? step(h, NULL_VALUE, 0, 0) : absorb(h, String.valueOf(arguments[index]));
            }
        }
        return h;
    }

    /**
     * Absorbs one string: triples (length, units 0-3, units 4-7), (units 8-11, 12-15, 16-19), ...
     * Keys of up to 8 units, the common case, take one straight path per length that reads every
     * unit at a constant index: merging partial words across lengths costs the JIT about as much
     * as the hashing itself. Longer keys, and ring points (hashed in bulk when a ring is built, so
     * their profile does not make this path look big to the JIT), take {@link #absorbAny}.
     */
    private static long absorb(long h, String text) {
        int length = text.length();
        switch (length) {
            case 0:
                return step(h, 0, 0, 0);
            case 1:
                return step(h, 1, text.charAt(0), 0);
            case 2:
                return step(h, 2, twoUnits(text, 0), 0);
            case 3:
                return step(h, 3, threeUnits(text, 0), 0);
            case 4:
                return step(h, 4, fullWord(text, 0), 0);
            case 5:
                return step(h, 5, fullWord(text, 0), text.charAt(4));
            case 6:
                return step(h, 6, fullWord(text, 0), twoUnits(text, 4));
            case 7:
                return step(h, 7, fullWord(text, 0), threeUnits(text, 4));
            case 8:
                return step(h, 8, fullWord(text, 0), fullWord(text, 4));
            default:
                return absorbAny(h, text);
        }
    }

    /** As {@link #absorb}, for any length in one loop. */
    private static long absorbAny(long h, String text) {
        h = step(h, text.length(), wordFrom(text, 0), wordFrom(text, 4));
        for (int i = 8; i < text.length(); i += 12) {
            h = step(h, wordFrom(text, i), wordFrom(text, i + 4), wordFrom(text, i + 8));
        }
        return h;
    }

    /** One triple: two independent 128-bit products, so the state waits for one multiply only. */
    private static long step(long h, long a, long b, long c) {
        return fold(a ^ FIRST, b ^ SECOND) ^ fold(c ^ THIRD, h ^ STATE);
    }

    private static long fold(long x, long y) {
        return x * y ^ Math.multiplyHigh(x, y);
    }

    /**
     * Units {@code i} to {@code i + 3} as one word. Built from two 32-bit halves rather than one
     * 64-bit accumulator: inlined into a balancer with many values live, the accumulator is kept
     * on the stack and every unit waits for a store and a reload, which measurably costs the
     * consistenthash picker its 30x-over-Dubbo bar at 100 providers (docs/benchmarks.md).
     */
    private static long fullWord(String text, int i) {
        return twoUnits(text, i + 2) << 32 | twoUnits(text, i);
    }

    /** Units {@code i} and {@code i + 1} in the low 32 bits (computed as an {@code int}, see {@link #fullWord}). */
    private static long twoUnits(String text, int i) {
        return (text.charAt(i) | text.charAt(i + 1) << 16) & 0xFFFFFFFFL;
    }

    private static long threeUnits(String text, int i) {
        return (long) text.charAt(i + 2) << 32 | twoUnits(text, i);
    }

    /** Units {@code i} to {@code i + 3} as one word, zero-padded past the end of {@code text}. */
    private static long wordFrom(String text, int i) {
        long word = 0;
        for (int j = Math.min(i + 4, text.length()) - 1; j >= i; j--) {
            word = word << 16 | text.charAt(j);
        }
        return word;
    }
}
