package dev.weft.rpc.loadbalance.internal;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class HashRingTest {

    /** The ring by its definition: every point sorted unsigned, a hash owned by the first point at or after it. */
    private static final class Reference {
        final long[] points;
        final int[] owners;
        private final long[] signFlipped;

        Reference(String[] members, int nodes) {
            List<long[]> pairs = new ArrayList<>();
            for (int slot = 0; slot < members.length; slot++) {
                for (int i = 0; i < nodes; i++) {
                    pairs.add(new long[] {KeyHash.of(members[slot] + "#" + i), slot});
                }
            }
            pairs.sort((x, y) -> x[0] != y[0] ? Long.compareUnsigned(x[0], y[0]) : Long.compare(x[1], y[1]));
            points = pairs.stream().mapToLong(p -> p[0]).toArray();
            owners = pairs.stream().mapToInt(p -> (int) p[1]).toArray();
            signFlipped = Arrays.stream(points).map(p -> p ^ Long.MIN_VALUE).toArray();
        }

        /** The first point at or after {@code hash}, 0 past the last: the JDK's search on sign-flipped values (same order as unsigned). */
        int ceiling(long hash) {
            long[] flipped = signFlipped;
            int found = Arrays.binarySearch(flipped, hash ^ Long.MIN_VALUE);
            int first = found >= 0 ? firstEqual(flipped, found) : -found - 1;
            return first == flipped.length ? 0 : first;
        }

        private static int firstEqual(long[] values, int index) {
            int i = index;
            while (i > 0 && values[i - 1] == values[index]) {
                i--;
            }
            return i;
        }

        int ownerOf(long hash) {
            return owners[ceiling(hash)];
        }
    }

    private static String[] members(int count) {
        String[] members = new String[count];
        for (int i = 0; i < count; i++) {
            members[i] = "10.0." + i / 250 + "." + (i % 250 + 1) + ":20880";
        }
        return members;
    }

    /** Hashes at, just before and just after every point, the extremes, and seeded random ones. */
    private static long[] probes(Reference reference, int random) {
        SplittableRandom seeded = new SplittableRandom(42);
        long[] probes = new long[reference.points.length * 3 + 2 + random];
        int n = 0;
        for (long point : reference.points) {
            probes[n++] = point - 1;
            probes[n++] = point;
            probes[n++] = point + 1;
        }
        probes[n++] = 0;
        probes[n++] = -1L;
        while (n < probes.length) {
            probes[n++] = seeded.nextLong();
        }
        return probes;
    }

    @Test
    void ownerOfAndCeiling_matchTheDefinition_forSmallAndLargeRings() {
        int[][] shapes = {{1, 1}, {2, 1}, {3, 5}, {10, 160}, {100, 160}};
        for (int[] shape : shapes) {
            String[] members = members(shape[0]);
            HashRing ring = HashRing.of(members, shape[1]);
            Reference reference = new Reference(members, shape[1]);
            assertThat(ring.size()).isEqualTo(reference.points.length);
            for (long hash : probes(reference, 20_000)) {
                int expected = reference.ceiling(hash);
                assertThat(ring.ceiling(hash)).as("ceiling of %x, %s", hash, Arrays.toString(shape)).isEqualTo(expected);
                assertThat(ring.ownerOf(hash)).as("owner of %x, %s", hash, Arrays.toString(shape)).isEqualTo(reference.owners[expected]);
            }
        }
    }

    @Test
    void of_refusesNoMembersOrNoNodes_namingBoth() {
        assertThatThrownBy(() -> HashRing.of(members(2), 0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ring: 2 members x 0 nodes (expected: at least one of each)");
        assertThatThrownBy(() -> HashRing.of(new String[0], 160)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("ring: 0 members x 160 nodes (expected: at least one of each)");
    }

    @Test
    void ownerOf_crowdedRanges_scanPastTheFirstTwoPoints() {
        String[] members = members(100);
        HashRing ring = HashRing.of(members, 160);
        Reference reference = new Reference(members, 160);
        int shift = 64 - ring.rangeBits();
        int crowded = 0;
        for (int i = 2; i < reference.points.length; i++) {
            long point = reference.points[i];
            if (reference.points[i - 2] >>> shift == point >>> shift) {
                crowded++;
                // the third (or later) point of a range: owner found only by scanning on
                assertThat(ring.ownerOf(point)).isEqualTo(reference.owners[i]);
                assertThat(ring.ownerOf(point - 1)).isEqualTo(reference.ownerOf(point - 1));
            }
        }
        assertThat(crowded).as("ranges holding three or more points in a 16,000 point ring").isGreaterThan(10);
    }
}
