package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class EventScheduleTest {

    private static final List<String> FIVE = List.of("a", "b", "c", "d", "e");

    @Test
    void standard_isTheWholeStory_atFixedShares() {
        assertThat(EventSchedule.standard(20_000, FIVE, true)).containsExactly(
                new LiveEvent(1000, LiveEvent.Kind.CANARY_ON, "e"),
                new LiveEvent(2400, LiveEvent.Kind.MOCK_ON, null),
                new LiveEvent(4000, LiveEvent.Kind.MOCK_OFF, null),
                new LiveEvent(5400, LiveEvent.Kind.CANARY_OFF, "e"),
                new LiveEvent(6600, LiveEvent.Kind.WEIGHT, "b"),
                new LiveEvent(8000, LiveEvent.Kind.BROWNOUT_SLOW, "c"),
                new LiveEvent(9400, LiveEvent.Kind.BROWNOUT_FAIL, "c"),
                new LiveEvent(10_800, LiveEvent.Kind.DISABLE, "c"),
                new LiveEvent(12_400, LiveEvent.Kind.KILL, "d"),
                new LiveEvent(14_000, LiveEvent.Kind.SHUTDOWN, "e"),
                new LiveEvent(16_000, LiveEvent.Kind.ZOOKEEPER_RESTART, null));
    }

    @Test
    void externalZooKeeper_isNotRestarted_andTheFirstProviderIsNeverTouched() {
        List<LiveEvent> events = EventSchedule.standard(3000, List.of("p", "q", "r", "s", "t", "u"), false);

        assertThat(events).extracting(LiveEvent::kind).doesNotContain(LiveEvent.Kind.ZOOKEEPER_RESTART).hasSize(10);
        assertThat(events).extracting(LiveEvent::provider).doesNotContain("p", "u");
        assertThat(events).extracting(LiveEvent::atMillis).isSorted();
    }

    @Test
    void fewerThanFiveProviders_isRejected() {
        assertThatThrownBy(() -> EventSchedule.standard(20_000, List.of("a", "b"), true))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("providers: [a, b] (expected: at least 5 for the live run)");
    }

    @Test
    void event_needsAProviderExactlyWhenItsKindTargetsOne() {
        assertThatThrownBy(() -> new LiveEvent(0, LiveEvent.Kind.KILL, null))
                .hasMessage("provider: null (expected: a name for KILL)");
        assertThatThrownBy(() -> new LiveEvent(0, LiveEvent.Kind.MOCK_ON, "a"))
                .hasMessage("provider: a (expected: none for MOCK_ON)");
        assertThat(new LiveEvent(6400, LiveEvent.Kind.WEIGHT, "b").label()).isEqualTo("provider b: override: weight=600");
        assertThat(new LiveEvent(6400, LiveEvent.Kind.WEIGHT, "b").at()).isEqualTo("6.4 s");
        assertThat(new LiveEvent(0, LiveEvent.Kind.CANARY_ON, "e").label())
                .isEqualTo("provider e: override: tag=canary (canary: the tagged calls go here only)");
        assertThat(new LiveEvent(0, LiveEvent.Kind.BROWNOUT_SLOW, "c").label()).isEqualTo("provider c: brownout: 20x slower");
    }
}
