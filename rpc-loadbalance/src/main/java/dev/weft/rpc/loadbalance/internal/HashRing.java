package dev.weft.rpc.loadbalance.internal;

import java.util.Arrays;

/**
 * A consistent-hash ring: {@code nodes} points per member, point {@code i} of member {@code a} at
 * {@code KeyHash.of(a + "#" + i)}, ordered as unsigned 64-bit values. A key belongs to the first
 * point at or after its hash, wrapping around.
 *
 * <p>Lookup is O(1) expected: a table indexed by the top bits of the hash, with at least four
 * entries per point (at most 2^{@value #MAX_TABLE_BITS}), stores for each range without a point
 * the owner of the next point directly (one array read for most keys), and for the other ranges
 * where their first point is; the first two points of such a range are stepped over without
 * branching on the hash (a mispredicted branch costs more than the compares), and only the rare
 * range with three or more points is scanned. Immutable and thread-safe.
 */
public final class HashRing {

    /** The points in unsigned order, then a sentinel (the largest unsigned value) that ends every scan. */
    private final long[] points;
    private final int size;
    private final int[] owners;
    private final int shift;
    /** Per range of the top bits: >= 0 the owner slot for every hash in it; else ~(its first point). */
    private final int[] table;

    static final int MAX_TABLE_BITS = 20;

    private HashRing(String[] members, int nodes) {
        int size = members.length * nodes;
        long[][] pairs = new long[size][];
        int p = 0;
        for (int slot = 0; slot < members.length; slot++) {
            for (int i = 0; i < nodes; i++) {
                pairs[p++] = new long[] {KeyHash.of(members[slot] + "#" + i), slot};
            }
        }
        Arrays.sort(pairs, (x, y) -> x[0] != y[0] ? Long.compareUnsigned(x[0], y[0]) : Long.compare(x[1], y[1]));
        this.size = size;
        this.points = new long[size + 1];
        points[size] = -1L;
        this.owners = new int[size + 1];
        for (int i = 0; i < size; i++) {
            points[i] = pairs[i][0];
            owners[i] = (int) pairs[i][1];
        }
        owners[size] = owners[0]; // past the last point the ring wraps to the first
        int bits = Math.min(MAX_TABLE_BITS, Math.max(2, 66 - Long.numberOfLeadingZeros(Math.max(1, size - 1))));
        this.shift = 64 - bits;
        this.table = new int[1 << bits];
        int point = 0;
        for (int range = 0; range < table.length; range++) {
            while (point < size && (points[point] >>> shift) < range) {
                point++;
            }
            boolean hasPoint = point < size && (points[point] >>> shift) == range;
            table[range] = hasPoint ? ~point : owners[point == size ? 0 : point];
        }
    }

    /**
     * A ring of {@code nodes} points for each of {@code members}, slot {@code i} being member
     * {@code i} (their order does not matter for the positions).
     */
    public static HashRing of(String[] members, int nodes) {
        if (members.length == 0 || nodes <= 0) {
            throw new IllegalArgumentException("ring: " + members.length + " members x " + nodes + " nodes (expected: at least one of each)");
        }
        return new HashRing(members.clone(), nodes);
    }

    /** Number of points. */
    public int size() {
        return size;
    }

    /** The member slot owning {@code hash}: the owner of the first point at or after it, wrapping. */
    public int ownerOf(long hash) {
        int entry = table[(int) (hash >>> shift)];
        if (entry >= 0) {
            return entry;
        }
        // the range holds points: step over up to two without a data-dependent branch (most
        // such ranges hold one or two), scan on only in the rare crowded range
        long[] p = points;
        int i = ~entry;
        i += Long.compareUnsigned(p[i], hash) < 0 ? 1 : 0;
        i += Long.compareUnsigned(p[i], hash) < 0 ? 1 : 0;
        if (Long.compareUnsigned(p[i], hash) < 0) {
            i = scan(i + 1, hash);
        }
        return owners[i];
    }

    /** Number of top hash bits that index the lookup table. */
    public int rangeBits() {
        return 64 - shift;
    }

    /** The position of the first point at or after {@code hash} (unsigned), wrapping to 0. */
    public int ceiling(long hash) {
        int range = (int) (hash >>> shift);
        while (table[range] >= 0) { // no point in this range: the answer is the first point of a later one
            if (++range == table.length) {
                return 0;
            }
        }
        int position = scan(~table[range], hash);
        return position == size ? 0 : position;
    }

    /**
     * The first position from {@code from} whose point is at or after {@code hash}; {@code size}
     * when there is none (the sentinel stops the loop there, without a bounds test).
     */
    private int scan(int from, long hash) {
        long[] p = points;
        int i = from;
        while (Long.compareUnsigned(p[i], hash) < 0) {
            i++;
        }
        return i;
    }

    /** The member slot owning the point at {@code position}. */
    public int ownerAt(int position) {
        return owners[position];
    }
}
