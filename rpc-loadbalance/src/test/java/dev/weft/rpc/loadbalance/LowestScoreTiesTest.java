package dev.weft.rpc.loadbalance;

import dev.weft.rpc.loadbalance.internal.WeightTable;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.random.RandomGenerator;

import static org.assertj.core.api.Assertions.assertThat;

class LowestScoreTiesTest {

    /** The rule spelled out plainly: ties in index order, uniform if their weights are equal, else a weighted walk. */
    private static int reference(long[] scores, WeightTable weights, RandomGenerator random) {
        long best = Long.MAX_VALUE;
        for (long score : scores) {
            best = Math.min(best, score);
        }
        List<Integer> ties = new ArrayList<>();
        long sum = 0;
        boolean same = true;
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] == best) {
                same &= ties.isEmpty() || weights.effectiveWeight(i) == weights.effectiveWeight(ties.get(0));
                ties.add(i);
                sum += weights.effectiveWeight(i);
            }
        }
        if (ties.size() == 1) {
            return ties.get(0);
        }
        if (same) {
            return ties.get(random.nextInt(ties.size()));
        }
        long offset = random.nextLong(sum);
        for (int tie : ties) {
            offset -= weights.effectiveWeight(tie);
            if (offset < 0) {
                return tie;
            }
        }
        throw new AssertionError("weighted walk fell off the end");
    }

    @Test
    void pick_matchesThePlainRule_andConsumesTheSameRandomNumbers() {
        SplittableRandom cases = new SplittableRandom(7);
        int[] pathsSeen = new int[4];
        for (int round = 0; round < 20_000; round++) {
            int n = 1 + cases.nextInt(12);
            int[] w = new int[n];
            int profile = cases.nextInt(4);
            for (int i = 0; i < n; i++) {
                w[i] = profile == 0 ? 100 : profile == 1 ? 0 : cases.nextInt(3) * 50; // equal, all zero, mixed with zeros
            }
            if (profile == 3) {
                w[cases.nextInt(n)] = 75;
            }
            WeightTable weights = WeightTable.of(w);
            long[] scores = new long[n];
            long best = LowestScoreTies.NOT_ELIGIBLE;
            for (int i = 0; i < n; i++) {
                scores[i] = weights.isEligible(i) ? cases.nextInt(3) : LowestScoreTies.NOT_ELIGIBLE;
                best = Math.min(best, scores[i]);
            }
            long seed = cases.nextLong();
            LowestScoreTies scan = LowestScoreTies.start(n);
            System.arraycopy(scores, 0, scan.scores, 0, n);
            SplittableRandom actualRandom = new SplittableRandom(seed);
            SplittableRandom expectedRandom = new SplittableRandom(seed);

            int picked = scan.pick(n, best, weights, actualRandom);

            assertThat(picked).as("round %d, scores %s, weights %s", round, java.util.Arrays.toString(scores), weights)
                    .isEqualTo(reference(scores, weights, expectedRandom));
            assertThat(actualRandom.nextLong()).as("same random draws, round %d", round).isEqualTo(expectedRandom.nextLong());
            pathsSeen[path(scores, best, weights)]++;
        }
        // every branch of pick was taken many times: single tie, uniform ties, weighted over all, weighted subset
        assertThat(java.util.Arrays.stream(pathsSeen).min().getAsInt()).as("paths %s", java.util.Arrays.toString(pathsSeen)).isGreaterThan(500);
    }

    private static int path(long[] scores, long best, WeightTable weights) {
        int count = 0;
        long sum = 0;
        java.util.Set<Integer> tieWeights = new java.util.HashSet<>();
        for (int i = 0; i < scores.length; i++) {
            if (scores[i] == best) {
                count++;
                sum += weights.effectiveWeight(i);
                tieWeights.add(weights.effectiveWeight(i));
            }
        }
        return count == 1 ? 0 : tieWeights.size() == 1 ? 1 : sum == weights.total() ? 2 : 3;
    }
}
