package dev.weft.rpc.protocol.weft;

import org.junit.jupiter.api.Test;

import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

class PeerClockTest {

    private static final long MS = TimeUnit.MILLISECONDS.toNanos(1);
    /** The consumer's clock reads this much less than the provider's at the same instant. */
    private static final long ORIGINS = 5_000_000 * MS;

    @Test
    void aFrameReadLate_isPlacedWhenItWasSent_notWhenItWasRead() {
        PeerClock clock = new PeerClock();
        // fresh frames, 2 ms and then 1 ms on the way
        assertThat(clock.toLocal(1_000 * MS - ORIGINS, 1_002 * MS)).isEqualTo(1_002 * MS);
        assertThat(clock.toLocal(1_100 * MS - ORIGINS, 1_101 * MS)).isEqualTo(1_101 * MS);
        // sent at 1,200, read 20 s later (the provider was stopped): placed at 1,201, the earliest it could have arrived
        assertThat(clock.toLocal(1_200 * MS - ORIGINS, 21_200 * MS)).isEqualTo(1_201 * MS);
        // the late sample did not move the estimate for the frames that follow
        assertThat(clock.toLocal(21_300 * MS - ORIGINS, 21_301 * MS)).isEqualTo(21_301 * MS);
    }

    @Test
    void aFasterFrame_lowersTheEstimate_soAMappedTimeIsNeverLaterThanItsArrival() {
        PeerClock clock = new PeerClock();
        assertThat(clock.toLocal(1_000 * MS - ORIGINS, 1_050 * MS)).isEqualTo(1_050 * MS);
        assertThat(clock.toLocal(1_100 * MS - ORIGINS, 1_101 * MS)).isEqualTo(1_101 * MS);
        assertThat(clock.toLocal(1_200 * MS - ORIGINS, 1_230 * MS)).isEqualTo(1_201 * MS);
    }

    @Test
    void rotation_keepsThePreviousWindow_soARotationAtAResumeStillHasTheSamplesFromBeforeThePause() {
        PeerClock clock = new PeerClock();
        assertThat(clock.toLocal(-ORIGINS, MS)).isEqualTo(MS);
        // stopped for 40 s (more than a window): the first frames read rotate the window
        assertThat(clock.toLocal(100 * MS - ORIGINS, 40_000 * MS)).isEqualTo(101 * MS);
        assertThat(clock.toLocal(200 * MS - ORIGINS, 40_000 * MS)).isEqualTo(201 * MS);
    }

    @Test
    void drift_isFollowedWithinTwoWindows() {
        PeerClock clock = new PeerClock();
        long window = TimeUnit.SECONDS.toNanos(PeerClock.WINDOW_SECONDS);
        assertThat(clock.toLocal(-ORIGINS, MS)).isEqualTo(MS);
        // the consumer's clock now runs 10 ms behind the one-way minimum seen at first
        long later = 2 * window + 10 * MS;
        // in the second window the first one's smaller sample still counts: placed 9 ms before its arrival
        assertThat(clock.toLocal(window + 10 * MS - ORIGINS - 10 * MS, window + 10 * MS)).isEqualTo(window + MS);
        assertThat(clock.toLocal(later - ORIGINS - 10 * MS, later)).as("the first window is dropped")
                .isEqualTo(later);
    }
}
