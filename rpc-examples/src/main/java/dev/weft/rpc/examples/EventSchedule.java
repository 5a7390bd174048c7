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
     * order given): the fifth provider tagged {@value LiveEvent#CANARY_TAG} at 5% (the tagged share of
     * the calls then goes to it alone) and untagged at 27%; a mock forced on {@code greet} at 12% and
     * removed at 20%; the second provider's weight raised at 33%; the third browning out, 20x slower
     * at 40% then failing (answering nothing in time) at 47%, and disabled at 54%; the fourth killed at 62%; the fifth
     * shut down gracefully at 70%; ZooKeeper restarted at 80% when {@code restartZooKeeper} (only an
     * embedded server can be restarted). The first provider is never touched, so some provider
     * always answers.
     */
    static List<LiveEvent> standard(long durationMillis, List<String> providers, boolean restartZooKeeper) {
        Preconditions.checkArgument(durationMillis >= 1000, "duration: %s ms (expected: >= 1000)", durationMillis);
        Preconditions.checkArgument(providers.size() >= 5, "providers: %s (expected: at least 5 for the live run)",
                providers);
        List<LiveEvent> events = new ArrayList<>();
        events.add(new LiveEvent(at(durationMillis, 5), LiveEvent.Kind.CANARY_ON, providers.get(4)));
        events.add(new LiveEvent(at(durationMillis, 12), LiveEvent.Kind.MOCK_ON, null));
        events.add(new LiveEvent(at(durationMillis, 20), LiveEvent.Kind.MOCK_OFF, null));
        events.add(new LiveEvent(at(durationMillis, 27), LiveEvent.Kind.CANARY_OFF, providers.get(4)));
        events.add(new LiveEvent(at(durationMillis, 33), LiveEvent.Kind.WEIGHT, providers.get(1)));
        events.add(new LiveEvent(at(durationMillis, 40), LiveEvent.Kind.BROWNOUT_SLOW, providers.get(2)));
        events.add(new LiveEvent(at(durationMillis, 47), LiveEvent.Kind.BROWNOUT_FAIL, providers.get(2)));
        events.add(new LiveEvent(at(durationMillis, 54), LiveEvent.Kind.DISABLE, providers.get(2)));
        events.add(new LiveEvent(at(durationMillis, 62), LiveEvent.Kind.KILL, providers.get(3)));
        events.add(new LiveEvent(at(durationMillis, 70), LiveEvent.Kind.SHUTDOWN, providers.get(4)));
        if (restartZooKeeper) {
            events.add(new LiveEvent(at(durationMillis, 80), LiveEvent.Kind.ZOOKEEPER_RESTART, null));
        }
        return List.copyOf(events);
    }

    private static long at(long durationMillis, int percent) {
        return durationMillis * percent / 100;
    }
}
