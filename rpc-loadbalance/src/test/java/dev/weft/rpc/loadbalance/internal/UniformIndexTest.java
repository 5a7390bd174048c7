package dev.weft.rpc.loadbalance.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;

class UniformIndexTest {

    /** Returns the scripted 32-bit draws in order (as {@code nextInt()} sees them). */
    private static RandomGenerator scripted(Deque<Integer> draws) {
        return () -> (long) draws.removeFirst() << 32;
    }

    @Test
    void draw_isTheHighHalfOfDrawTimesBound() {
        Deque<Integer> draws = new ArrayDeque<>(java.util.List.of(0x80000000, 0xFFFFFFFF, 0x55555556));
        RandomGenerator random = scripted(draws);
        assertThat(UniformIndex.draw(random, 3)).isEqualTo(1);
        assertThat(UniformIndex.draw(random, 3)).isEqualTo(2);
        assertThat(UniformIndex.draw(random, 3)).isEqualTo(1);
        assertThat(draws).isEmpty();
    }

    @Test
    void draw_rejectsTheDrawsThatWouldBiasTheResult_andDrawsAgain() {
        // bound 3: 2^32 mod 3 = 1, so only a low half of 0 (the draw 0) is rejected
        Deque<Integer> draws = new ArrayDeque<>(java.util.List.of(0, 0x80000000));
        assertThat(UniformIndex.draw(scripted(draws), 3)).isEqualTo(1);
        assertThat(draws).as("the rejected draw was replaced").isEmpty();
        // bound 10: 2^32 mod 10 = 6; the draw 0 gives low half 0 < 6 (rejected); 0x1999999A gives low half 4 < 6 (rejected)
        Deque<Integer> more = new ArrayDeque<>(java.util.List.of(0, 0x1999999A, 0x19999999 * 3));
        int index = UniformIndex.draw(scripted(more), 10);
        assertThat(more).isEmpty();
        assertThat(index).isEqualTo((int) (((0x19999999L * 3) & 0xFFFFFFFFL) * 10 >>> 32));
    }

    @Test
    void draw_staysInRange_andIsUniform_chiSquareBelowCritical() {
        SplittableRandom seeded = new SplittableRandom(20261129);
        for (int bound = 1; bound <= 200; bound++) {
            for (int i = 0; i < 200; i++) {
                assertThat(UniformIndex.draw(seeded, bound)).isBetween(0, bound - 1);
            }
        }
        int[] counts = new int[10];
        for (int i = 0; i < 100_000; i++) {
            counts[UniformIndex.draw(seeded, 10)]++;
        }
        double chiSquare = 0;
        for (int count : counts) {
            chiSquare += Math.pow(count - 10_000, 2) / 10_000;
        }
        // 9 degrees of freedom, p = 0.001
        assertThat(chiSquare).isLessThan(27.88);
    }
}
