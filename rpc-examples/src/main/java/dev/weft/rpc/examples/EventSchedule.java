package dev.weft.rpc.examples;

import com.google.common.base.Preconditions;

import java.util.ArrayList;
import java.util.List;

/**
 * When the live run applies which governance action or fault: fixed shares of the run's length,
 * so a short run (a test) and the default run tell the same story. Stateless.
 */
final class EventSchedule {

    private EventSchedule() {
    }

    /**
     * The standard story over {@code durationMillis} against {@code providers} (at least 5, in the
     * order given): a mock forced on {@code greet} at 10% and removed at 22%; the second provider's
     * weight raised at 32%; the third disabled at 44%; the fourth killed at 56%; the fifth shut down
     * gracefully at 68%; ZooKeeper restarted at 80% when {@code restartZooKeeper} (only an embedded
     * server can be restarted). The first provider is never touched, so some provider always answers.
     */
    static List<LiveEvent> standard(long durationMillis, List<String> providers, boolean restartZooKeeper) {
        Preconditions.checkArgument(durationMillis >= 1000, "duration: %s ms (expected: >= 1000)", durationMillis);
        Preconditions.checkArgument(providers.size() >= 5, "providers: %s (expected: at least 5 for the live run)",
                providers);
        List<LiveEvent> events = new ArrayList<>();
        events.add(new LiveEvent(at(durationMillis, 10), LiveEvent.Kind.MOCK_ON, null));
        events.add(new LiveEvent(at(durationMillis, 22), LiveEvent.Kind.MOCK_OFF, null));
        events.add(new LiveEvent(at(durationMillis, 32), LiveEvent.Kind.WEIGHT, providers.get(1)));
        events.add(new LiveEvent(at(durationMillis, 44), LiveEvent.Kind.DISABLE, providers.get(2)));
        events.add(new LiveEvent(at(durationMillis, 56), LiveEvent.Kind.KILL, providers.get(3)));
        events.add(new LiveEvent(at(durationMillis, 68), LiveEvent.Kind.SHUTDOWN, providers.get(4)));
        if (restartZooKeeper) {
            events.add(new LiveEvent(at(durationMillis, 80), LiveEvent.Kind.ZOOKEEPER_RESTART, null));
        }
        return List.copyOf(events);
    }

    private static long at(long durationMillis, int percent) {
        return durationMillis * percent / 100;
    }
}
