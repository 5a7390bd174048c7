package dev.weft.rpc.protocol.weft;

import org.junit.jupiter.api.Test;

import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BackoffTest {

    @Test
    void withoutJitter_doublesUpToTheCap() {
        Backoff backoff = new Backoff(100, 1000, 0, new Random(1));
        long[] delays = new long[7];
        for (int i = 0; i < delays.length; i++) {
            delays[i] = backoff.delayMillis(i);
        }
        assertThat(delays).containsExactly(100, 200, 400, 800, 1000, 1000, 1000);
        assertThat(backoff.delayMillis(1000)).isEqualTo(1000);
    }

    @Test
    void jitter_staysWithinItsBand_andSpreadsConsumers() {
        Backoff backoff = new Backoff(1000, 1000, 0.2, new Random(42));
        long min = Long.MAX_VALUE;
        long max = Long.MIN_VALUE;
        for (int i = 0; i < 1000; i++) {
            long delay = backoff.delayMillis(0);
            min = Math.min(min, delay);
            max = Math.max(max, delay);
        }
        assertThat(min).isGreaterThanOrEqualTo(800).isLessThan(820);
        assertThat(max).isLessThanOrEqualTo(1200).isGreaterThan(1180);
    }

    @Test
    void badSettings_areRejectedWithTheRule() {
        assertThatThrownBy(() -> new Backoff(0, 10, 0, new Random()))
                .hasMessage("initial backoff: 0 ms (expected: > 0)");
        assertThatThrownBy(() -> new Backoff(10, 5, 0, new Random()))
                .hasMessage("max backoff: 5 ms (expected: >= initial 10)");
        assertThatThrownBy(() -> new Backoff(10, 50, 1, new Random()))
                .hasMessage("jitter: 1.0 (expected: in [0, 1))");
    }
}
