package dev.weft.rpc.protocol.weft;

import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class UploadRateTest {

    private static final long RATE = 64 * 1024;
    private static final long MIB = 1024 * 1024;

    private final FakeTicker ticker = new FakeTicker().set(Duration.ofHours(1).toNanos());
    private final UploadRate rate = new UploadRate(RATE, ticker);

    /** Checks once a second; {@code received[i]} is the body received at second i + 1. */
    private List<Boolean> checkEverySecond(long... received) {
        List<Boolean> verdicts = new ArrayList<>();
        for (long bytes : received) {
            ticker.advance(Duration.ofSeconds(1));
            verdicts.add(rate.fastEnough(bytes));
        }
        return verdicts;
    }

    @Test
    void burstThenTrickle_fallsBehind_oneWindowAfterTheBurst() {
        rate.start();
        // 6 MiB at once, then a byte every second: averaged from the start it would pass for 96 s
        List<Boolean> verdicts = checkEverySecond(6 * MIB, 6 * MIB + 1, 6 * MIB + 2, 6 * MIB + 3, 6 * MIB + 4,
                6 * MIB + 5);
        assertThat(verdicts).containsExactly(true, true, true, true, true, false);
        assertThat(rate.lastWindow()).isEqualTo("5 bytes in the last 5000 ms");
    }

    @Test
    void anUploadThatStalls_fallsBehind_withinTheWindowAndAPeriod_whateverItSentBefore() {
        rate.start();
        long[] received = new long[20];
        for (int second = 0; second < 12; second++) {
            received[second] = (second + 1) * MIB; // 1 MiB/s, 16 times the rate
        }
        for (int second = 12; second < 20; second++) {
            received[second] = 12 * MIB; // stalled after 12 s
        }
        List<Boolean> verdicts = checkEverySecond(received);
        // the last byte came by the check at 12 s; the window [12 s, 17 s] gains nothing
        assertThat(verdicts.indexOf(false) + 1).isEqualTo(17);
        assertThat(verdicts.subList(0, 16)).containsOnly(true);
    }

    @Test
    void aSteadyUploadAboveTheRate_neverFallsBehind_evenWhenChecksAreLate() {
        rate.start();
        long nanosPerByte = 1_000_000_000L / (RATE + RATE / 10); // 10% above the rate
        long[] gaps = {1_000, 1_000, 2_500, 700, 1_000, 4_000, 1_000, 300, 1_000, 1_200}; // ms; a busy loop checks late
        long elapsed = 0;
        for (int i = 0; i < 100; i++) {
            long gap = gaps[i % gaps.length];
            ticker.advance(Duration.ofMillis(gap));
            elapsed += gap * 1_000_000;
            assertThat(rate.fastEnough(elapsed / nanosPerByte)).as("check %d at %d ms", i, elapsed / 1_000_000).isTrue();
        }
    }

    @Test
    void aSteadyUploadJustBelowTheRate_fallsBehind_onceTheWindowLeavesTheGrace() {
        rate.start();
        long perSecond = RATE - 4 * 1024;
        long[] received = new long[8];
        for (int second = 0; second < received.length; second++) {
            received[second] = (second + 1) * perSecond;
        }
        // from the start, with 1 s of grace, it keeps up until 16 s; over the last 5 s it does not
        assertThat(checkEverySecond(received)).containsExactly(true, true, true, true, true, false, false, false);
    }

    @Test
    void theFirstSecond_isGrace_forABodyStartingSlowly() {
        rate.start();
        assertThat(checkEverySecond(0, RATE, 2 * RATE, 3 * RATE)).containsExactly(true, true, true, true);
        assertThat(checkEverySecond(3 * RATE + RATE / 2)).containsExactly(false); // 3.5 x rate by 5 s: behind
    }

    @Test
    void start_forgetsThePreviousBody() {
        rate.start();
        assertThat(checkEverySecond(10 * MIB, 10 * MIB, 10 * MIB, 10 * MIB, 10 * MIB, 10 * MIB)).endsWith(false);
        rate.start();
        // a new body: received counts from 0 again, and a window never reaches before its start
        assertThat(checkEverySecond(0, RATE, 2 * RATE, 3 * RATE, 4 * RATE, 5 * RATE, 6 * RATE)).containsOnly(true);
    }

    @Test
    void aRateThatIsNotPositive_isRefused() {
        assertThatThrownBy(() -> new UploadRate(0, ticker))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("bytesPerSecond: 0 (expected: > 0)");
    }
}
