package dev.weft.rpc.cluster;

import dev.weft.rpc.common.Invoker;
import dev.weft.rpc.testing.FakeProvider;
import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static dev.weft.rpc.cluster.TestClusters.consumer;
import static org.assertj.core.api.Assertions.assertThat;

/** The detector alone: what it hands the directory, and which calls it lets through. */
class OutlierDetectorTest {

    private final FakeTicker ticker = new FakeTicker();
    private final List<List<Invoker<?>>> published = new ArrayList<>();
    private final ServiceResilience counters = new ServiceResilience("svc", ticker);
    private final OutlierDetector detector = new OutlierDetector(ticker, published::add, counters);
    private final FakeProvider<Greeting> a = FakeProvider.of(Greeting.class, "10.0.0.1");
    private final FakeProvider<Greeting> b = FakeProvider.of(Greeting.class, "10.0.0.2");
    private final DirectoryState<Greeting> state = DirectoryState.of(consumer(""), List.of(a, b), 1);
    private final OutlierSettings settings = new OutlierSettings(3, 0, Duration.ofSeconds(10), 50);

    @Test
    void anEjectedProvider_isRefusedToCallsAlreadyRouted_andOthersAreAdmitted() {
        for (int i = 0; i < 3; i++) {
            assertThat(detector.admit(a, settings)).isTrue();
            detector.onFailure(a, detector.mark(), settings, state);
        }

        assertThat(published).containsExactly(List.of(a));
        assertThat(detector.admit(a, settings)).isFalse();
        assertThat(detector.admit(b, settings)).isTrue();
        assertThat(detector.admit(a, OutlierSettings.DEFAULT.withFailures(0))).as("ejection turned off").isTrue();
    }

    @Test
    void aReturningProvider_takesOneProbeAtATime_untilTheProbeHasAnOutcome() {
        for (int i = 0; i < 3; i++) {
            detector.onFailure(a, detector.mark(), settings, state);
        }
        ticker.advance(Duration.ofSeconds(10));
        assertThat(detector.returnDue(settings)).isTrue();
        assertThat(published).containsExactly(List.of(a), List.of());

        assertThat(detector.admit(a, settings)).as("the probe").isTrue();
        assertThat(detector.admit(a, settings)).as("while the probe is in flight").isFalse();
        assertThat(detector.admit(b, settings)).isTrue();
        detector.onBusy(a);
        assertThat(detector.admit(a, settings)).as("a busy probe: probe again").isTrue();
        detector.onAnswer(a, settings);
        assertThat(detector.admit(a, settings)).isTrue();
        assertThat(detector.admit(a, settings)).as("probe answered: calls flow").isTrue();
        assertThat(counters.returns()).isEqualTo(1);
    }

    @Test
    void aFailedProbe_ejectsAgainForTwiceAsLong() {
        for (int i = 0; i < 3; i++) {
            detector.onFailure(a, detector.mark(), settings, state);
        }
        ticker.advance(Duration.ofSeconds(10));
        detector.returnDue(settings);
        assertThat(detector.admit(a, settings)).isTrue();
        detector.onFailure(a, detector.mark(), settings, state);

        assertThat(detector.ejected()).containsExactly(a);
        ticker.advance(Duration.ofMillis(19_999));
        assertThat(detector.returnDue(settings)).isFalse();
        ticker.advance(Duration.ofMillis(1));
        assertThat(detector.returnDue(settings)).isTrue();
        assertThat(counters.ejections()).isEqualTo(2);
    }

    @Test
    void failuresOfAttemptsSentBeforeAnEjection_countNeitherTowardsTheNext_norOnProbation() {
        long sentBefore = detector.mark();
        for (int i = 0; i < 3; i++) {
            detector.onFailure(a, detector.mark(), settings, state);
        }
        for (int i = 0; i < 5; i++) {
            detector.onFailure(a, sentBefore, settings, state); // in flight when it was ejected
        }
        ticker.advance(Duration.ofSeconds(10));
        assertThat(detector.returnDue(settings)).isTrue();
        detector.onFailure(a, sentBefore, settings, state);
        assertThat(detector.ejected()).as("an old attempt's failure does not end the probation").isEmpty();

        assertThat(detector.admit(a, settings)).as("the probe").isTrue();
        detector.onFailure(a, detector.mark(), settings, state);
        assertThat(detector.ejected()).as("the probe's failure does").containsExactly(a);
        assertThat(counters.ejections()).isEqualTo(2);
    }
}
