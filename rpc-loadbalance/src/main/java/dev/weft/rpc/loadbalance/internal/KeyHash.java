package dev.weft.rpc.loadbalance.internal;

/**
 * Weft key hash v1: a 64-bit hash of strings that is stable across JVMs, platforms and versions
 * (it depends only on the UTF-16 code units of the text, never on {@code String.hashCode()} or on
 * identity hashes). Used by {@code consistenthash} for ring points and call keys.
 *
 * <p>Definition. The state starts at {@code 0x9E3779B97F4A7C15}. Each 64-bit block {@code k} is
 * absorbed as {@code k *= 0x87C37B91114253D5; k = rotl(k, 31); k *= 0x4CF5AD432745937F;
 * h ^= k; h = rotl(h, 27) * 5 + 0x52DCE729}. A string is absorbed as its length (one block)
 * followed by its code units packed four per block, little-endian (unit {@code j} of a block at
 * bits {@code 16j}), the last block zero-padded; a {@code null} value is the single block
 * {@code -1}, an absent argument the block {@code -2}. The result is Murmur3's {@code fmix64}
 * finaliser of {@code h}: {@code h ^= h >>> 33; h *= 0xFF51AFD7ED558CCD; h ^= h >>> 33;
 * h *= 0xC4CEB9FE1A85EC53; h ^= h >>> 33}. Length prefixes make a sequence of values
 * unambiguous: ("ab","c") and ("a","bc") hash differently.
 *
 * <p>Stateless and thread-safe; no allocation for {@code String} arguments.
 */
public final class KeyHash {

    private static final long SEED = 0x9E3779B97F4A7C15L;
    private static final long C1 = 0x87C37B91114253D5L;
    private static final long C2 = 0x4CF5AD432745937FL;
    private static final long NULL_VALUE = -1;
    private static final long ABSENT_VALUE = -2;

    private KeyHash() {
    }

    /** The hash of one string. */
    public static long of(String text) {
        return fmix64(absorb(SEED, text));
    }

    /**
     * The hash of the arguments at {@code indexes} ({@code String.valueOf} of each; a missing index
     * counts as absent, {@code null} as null).
     */
    public static long ofArguments(Object[] arguments, int[] indexes) {
        if (indexes.length == 1 && arguments != null && indexes[0] < arguments.length
                && arguments[indexes[0]] instanceof String) {
            return fmix64(absorb(SEED, (String) arguments[indexes[0]]));
        }
        long h = SEED;
        int available = arguments == null ? 0 : arguments.length;
        for (int index : indexes) {
            if (index >= available) {
                h = absorbBlock(h, ABSENT_VALUE);
                continue;
            }
            Object argument = arguments[index];
            if (argument == null) {
                h = absorbBlock(h, NULL_VALUE);
            } else {
                h = absorb(h, argument instanceof String ? (String) argument : String.valueOf(argument));
            }
        }
        return fmix64(h);
    }

    private static long absorb(long h, String text) {
        int length = text.length();
        h = absorbBlock(h, length);
        int i = 0;
        for (; i + 4 <= length; i += 4) {
            long block = text.charAt(i)
                    | (long) text.charAt(i + 1) << 16
                    | (long) text.charAt(i + 2) << 32
                    | (long) text.charAt(i + 3) << 48;
            h = absorbBlock(h, block);
        }
        int rest = length - i;
        if (rest > 0) {
            long block = text.charAt(i);
            if (rest > 1) {
                block |= (long) text.charAt(i + 1) << 16;
                if (rest > 2) {
                    block |= (long) text.charAt(i + 2) << 32;
                }
            }
            h = absorbBlock(h, block);
        }
        return h;
    }

    private static long absorbBlock(long h, long k) {
        k *= C1;
        k = Long.rotateLeft(k, 31);
        k *= C2;
        h ^= k;
        return Long.rotateLeft(h, 27) * 5 + 0x52DCE729L;
    }

    private static long fmix64(long h) {
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h;
    }
}
