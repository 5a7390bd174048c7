package dev.weft.rpc.protocol.filter;

import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The adaptive limit alone, on a fake clock: a simulated provider that runs 4 calls at once, 5 ms
 * each (calls beyond 4 wait their turn), offered more calls than it can take in every round.
 */
class AdaptiveLimitTest {

    private static final int CORES = 4;
    private static final Duration SERVICE_TIME = Duration.ofMillis(5);

    private final FakeTicker ticker = new FakeTicker();
    private final AdaptiveLimit limit = new AdaptiveLimit(ticker);

    /**
     * One round: admits as many of {@code offered} calls as the limit allows and runs them 4 at a
     * time in admission order: the first 4 end after 5 ms, the next 4 after 10 ms, and so on.
     *
     * @return the calls admitted
     */
    private int round(int offered) {
        List<AdaptiveLimit.Permit> admitted = new ArrayList<>();
        for (int i = 0; i < offered; i++) {
            limit.tryAcquire().ifPresent(admitted::add);
        }
        for (int wave = 0; wave * CORES < admitted.size(); wave++) {
            ticker.advance(SERVICE_TIME);
            admitted.subList(wave * CORES, Math.min(admitted.size(), (wave + 1) * CORES)).forEach(AdaptiveLimit.Permit::answered);
        }
        return admitted.size();
    }

    @Test
    void sustainedOverload_theLimitSettlesNearTheCapacity_andDoesNotDriftUp() {
        List<Integer> admittedPerRound = new ArrayList<>();
        for (int i = 0; i < 150; i++) {
            admittedPerRound.add(round(64)); // offered far more than the 4 cores take
        }

        List<Integer> lastRounds = admittedPerRound.subList(100, 150);
        assertThat(lastRounds).as("enough admitted to keep the 4 cores busy (goodput)").allSatisfy(admitted ->
                assertThat(admitted).isGreaterThanOrEqualTo(CORES));
        assertThat(lastRounds).as("few queued: the admitted calls wait at most two turns (latency <= 3x)").allSatisfy(admitted ->
                assertThat(admitted).isLessThanOrEqualTo(3 * CORES));
        assertThat(limit.limit()).isBetween(CORES, 3 * CORES);
    }

    @Test
    void anIdleProvider_doesNotLowerTheLimit_andFastCallsAtTheLimitRaiseIt() {
        for (int i = 0; i < 20; i++) {
            round(2); // app-limited: far below the limit, the latency says nothing about queueing
        }
        assertThat(limit.limit()).isEqualTo(AdaptiveLimit.INITIAL_LIMIT);

        List<AdaptiveLimit.Permit> atTheLimit = new ArrayList<>();
        for (int i = 0; i < AdaptiveLimit.INITIAL_LIMIT; i++) {
            limit.tryAcquire().ifPresent(atTheLimit::add);
        }
        assertThat(atTheLimit).hasSize(AdaptiveLimit.INITIAL_LIMIT);
        assertThat(limit.tryAcquire()).as("one over the limit").isEmpty();
        ticker.advance(SERVICE_TIME); // no slower than the no-load latency: nothing queued
        atTheLimit.forEach(AdaptiveLimit.Permit::answered);

        assertThat(limit.limit()).isGreaterThan(AdaptiveLimit.INITIAL_LIMIT);
    }

    @Test
    void aCallEndingOnTheSameClockReading_isIgnored_andItsPermitReleased() {
        AdaptiveLimit.Permit permit = limit.tryAcquire().orElseThrow();

        permit.answered(); // no time passed: the library refuses a zero latency

        assertThat(limit.inFlight()).isZero();
        assertThat(limit.limit()).isEqualTo(AdaptiveLimit.INITIAL_LIMIT);
        List<AdaptiveLimit.Permit> all = new ArrayList<>();
        for (int i = 0; i < AdaptiveLimit.INITIAL_LIMIT; i++) {
            limit.tryAcquire().ifPresent(all::add);
        }
        assertThat(all).as("every permit available again").hasSize(AdaptiveLimit.INITIAL_LIMIT);
    }
}
