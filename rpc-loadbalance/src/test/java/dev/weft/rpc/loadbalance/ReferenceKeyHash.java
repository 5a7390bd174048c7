package dev.weft.rpc.loadbalance;

import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;

/**
 * A deliberately plain second implementation of the KeyHash v2 definition (word list, explicit
 * padding to triples, 128-bit products with {@link BigInteger}), to check the optimised one against.
 */
final class ReferenceKeyHash {

    /** Marks an absent argument in {@link #ofValues}. */
    static final Object ABSENT = new Object();

    private static final BigInteger LOW_64 = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);

    private ReferenceKeyHash() {
    }

    static long of(String text) {
        return ofValues(text);
    }

    /** Values are strings, {@code null}, or {@link #ABSENT}. */
    static long ofValues(Object... values) {
        List<Long> words = new ArrayList<>();
        for (Object value : values) {
            List<Long> own = new ArrayList<>();
            if (value == null) {
                own.add(-1L);
            } else if (value == ABSENT) {
                own.add(-2L);
            } else {
                String text = (String) value;
                own.add((long) text.length());
                for (int i = 0; i < text.length(); i += 4) {
                    long word = 0;
                    for (int j = 0; j < 4 && i + j < text.length(); j++) {
                        word |= (long) text.charAt(i + j) << (16 * j);
                    }
                    own.add(word);
                }
            }
            while (own.size() % 3 != 0) {
                own.add(0L);
            }
            words.addAll(own);
        }
        long h = 0x9E3779B97F4A7C15L;
        for (int i = 0; i < words.size(); i += 3) {
            h = fold(words.get(i) ^ 0x6A09E667F3BCC908L, words.get(i + 1) ^ 0xBB67AE8584CAA73BL)
                    ^ fold(words.get(i + 2) ^ 0x3C6EF372FE94F82BL, h ^ 0xA54FF53A5F1D36F1L);
        }
        return h;
    }

    private static long fold(long a, long b) {
        BigInteger product = BigInteger.valueOf(a).multiply(BigInteger.valueOf(b));
        long low = product.and(LOW_64).longValue();
        long high = product.shiftRight(64).and(LOW_64).longValue();
        return low ^ high;
    }
}
