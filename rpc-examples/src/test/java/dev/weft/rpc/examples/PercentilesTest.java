package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PercentilesTest {

    private static long[] oneTo(int n) {
        long[] values = new long[n];
        for (int i = 0; i < n; i++) {
            values[n - 1 - i] = i + 1; // descending, so sorting matters
        }
        return values;
    }

    @Test
    void nearestRank_onOneToHundred() {
        Percentiles percentiles = Percentiles.of(oneTo(100));

        assertThat(percentiles.percentile(50)).isEqualTo(50);
        assertThat(percentiles.percentile(99)).isEqualTo(99);
        assertThat(percentiles.percentile(100)).isEqualTo(100);
        assertThat(percentiles.percentile(0.5)).isEqualTo(1);
    }

    @Test
    void nearestRank_roundsTheRankUp() {
        Percentiles percentiles = Percentiles.of(oneTo(1001));

        // ceil(0.5 * 1001) = 501, ceil(0.99 * 1001) = 991
        assertThat(percentiles.percentile(50)).isEqualTo(501);
        assertThat(percentiles.percentile(99)).isEqualTo(991);
    }

    @Test
    void fewSamples_giveObservedValues() {
        Percentiles percentiles = Percentiles.of(new long[] {30, 10, 20});

        assertThat(percentiles.count()).isEqualTo(3);
        assertThat(percentiles.percentile(50)).isEqualTo(20);
        assertThat(percentiles.percentile(99)).isEqualTo(30);
        assertThat(Percentiles.of(new long[] {7}).percentile(99)).isEqualTo(7);
    }

    @Test
    void slowTail_showsInP99_notInP50() {
        long[] samples = new long[1000];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = i % 50 == 0 ? 10_000_000 : 1_000_000; // 2% of calls 10x slower
        }

        Percentiles percentiles = Percentiles.of(samples);

        assertThat(percentiles.percentile(50)).isEqualTo(1_000_000);
        assertThat(percentiles.percentile(99)).isEqualTo(10_000_000);
    }

    @Test
    void noSamples_giveZero() {
        assertThat(Percentiles.of(new long[0]).percentile(99)).isZero();
    }

    @Test
    void input_isNotModified() {
        long[] samples = {3, 1, 2};

        Percentiles.of(samples);

        assertThat(samples).containsExactly(3, 1, 2);
    }

    @Test
    void percentileOutOfRange_isRejected() {
        assertThatThrownBy(() -> Percentiles.of(oneTo(3)).percentile(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("percentile: 0.0 (expected: 0 < p <= 100)");
    }
}
