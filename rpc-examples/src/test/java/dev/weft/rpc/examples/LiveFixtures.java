package dev.weft.rpc.examples;

import com.google.common.collect.ImmutableMultiset;
import dev.weft.rpc.testing.FakeTicker;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** A deterministic live run: 10 s, five providers, the standard events, calls recorded on a fake ticker. */
final class LiveFixtures {

    static final List<String> PROVIDERS = List.of("a", "b", "c", "d", "e");
    static final long DURATION_MILLIS = 10_000;
    /** The provider the standard story tags {@value LiveEvent#CANARY_TAG}. */
    static final String CANARY = "e";

    private LiveFixtures() {
    }

    /**
     * Every 10 ms one call, every fourth one tagged: answered round robin (one pick per answered call) by the providers still in
     * (a provider leaves at its event); while the canary rule is on (0.5 s to 2.7 s) the tagged calls
     * go to {@code e} alone and the others to the rest; mocked while the mock rule is on (1.2 s to
     * 2.0 s); one failure right after the kill (6.2 s); latency 1 ms, 20 ms for the failure.
     */
    static LiveRun.Result result() {
        FakeTicker ticker = new FakeTicker();
        TimeSeries series = new TimeSeries(ticker, PROVIDERS);
        List<LiveEvent> events = EventSchedule.standard(DURATION_MILLIS, PROVIDERS, true);
        long canaryOn = at(events, LiveEvent.Kind.CANARY_ON);
        long canaryOff = at(events, LiveEvent.Kind.CANARY_OFF);
        long mockOn = at(events, LiveEvent.Kind.MOCK_ON);
        long mockOff = at(events, LiveEvent.Kind.MOCK_OFF);
        long kill = at(events, LiveEvent.Kind.KILL);
        List<String> in = new ArrayList<>(PROVIDERS);
        for (int t = 0, n = 0, pick = 0; t < DURATION_MILLIS; t += 10, n++) {
            ticker.set(TimeUnit.MILLISECONDS.toNanos(t));
            for (LiveEvent event : events) {
                if (event.atMillis() == t && (event.kind() == LiveEvent.Kind.DISABLE
                        || event.kind() == LiveEvent.Kind.KILL || event.kind() == LiveEvent.Kind.SHUTDOWN)) {
                    in.remove(event.provider());
                }
            }
            boolean tagged = n % 4 == 0;
            boolean canary = t >= canaryOn && t < canaryOff;
            List<String> pool = !canary ? in : tagged ? List.of(CANARY) : in.stream().filter(p -> !p.equals(CANARY)).toList();
            if (t >= mockOn && t < mockOff) {
                series.record(CallTally.Outcome.MOCKED, null, 1_000_000, tagged);
            } else if (t == kill) {
                series.record(CallTally.Outcome.FAILED, null, 20_000_000, tagged);
            } else {
                series.record(CallTally.Outcome.OK, pool.get(pick++ % pool.size()), 1_000_000, tagged);
            }
        }
        List<LiveRun.Applied> applied = events.stream().map(e -> new LiveRun.Applied(e, e.atMillis(), null)).toList();
        return new LiveRun.Result(PROVIDERS, DURATION_MILLIS, series, applied,
                ImmutableMultiset.of("RpcException(NETWORK)"));
    }

    private static long at(List<LiveEvent> events, LiveEvent.Kind kind) {
        return events.stream().filter(e -> e.kind() == kind).findFirst().orElseThrow().atMillis();
    }
}
