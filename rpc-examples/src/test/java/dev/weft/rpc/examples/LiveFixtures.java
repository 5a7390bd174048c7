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

    private LiveFixtures() {
    }

    /**
     * Every 10 ms one call: answered round robin by the providers still in (a provider leaves at its
     * event), mocked while the mock rule is on (1.0 s to 2.2 s), one failure right after the kill
     * (5.6 s); latency 1 ms, 20 ms for the failure.
     */
    static LiveRun.Result result() {
        FakeTicker ticker = new FakeTicker();
        TimeSeries series = new TimeSeries(ticker, PROVIDERS);
        List<LiveEvent> events = EventSchedule.standard(DURATION_MILLIS, PROVIDERS, true);
        List<String> in = new ArrayList<>(PROVIDERS);
        for (int t = 0, n = 0; t < DURATION_MILLIS; t += 10, n++) {
            ticker.set(TimeUnit.MILLISECONDS.toNanos(t));
            for (LiveEvent event : events) {
                if (event.atMillis() == t && (event.kind() == LiveEvent.Kind.DISABLE
                        || event.kind() == LiveEvent.Kind.KILL || event.kind() == LiveEvent.Kind.SHUTDOWN)) {
                    in.remove(event.provider());
                }
            }
            if (t >= 1000 && t < 2200) {
                series.record(CallTally.Outcome.MOCKED, null, 1_000_000);
            } else if (t == 5600) {
                series.record(CallTally.Outcome.FAILED, null, 20_000_000);
            } else {
                series.record(CallTally.Outcome.OK, in.get(n % in.size()), 1_000_000);
            }
        }
        List<LiveRun.Applied> applied = events.stream().map(e -> new LiveRun.Applied(e, e.atMillis(), null)).toList();
        return new LiveRun.Result(PROVIDERS, DURATION_MILLIS, series, applied,
                ImmutableMultiset.of("RpcException(NETWORK)"));
    }
}
