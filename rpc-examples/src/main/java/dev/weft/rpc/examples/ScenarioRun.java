package dev.weft.rpc.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * A scenario that has run: its providers' counters and what the caller saw. The result is taken
 * by {@link #result()} later than the calls, so failback retries that ran in the background
 * afterwards are counted too. Thread-safe (its parts are).
 */
final class ScenarioRun {

    /** The failback retry period key and default (docs/url-keys.md), read to know how long to wait. */
    static final String FAILBACK_PERIOD_KEY = "failback.period";
    static final long DEFAULT_FAILBACK_PERIOD_MILLIS = 5000;

    private final Scenario scenario;
    private final List<ProviderCounters> counters;
    private final CallTally tally;
    private final long wallNanos;

    ScenarioRun(Scenario scenario, List<ProviderCounters> counters, CallTally tally, long wallNanos) {
        this.scenario = Objects.requireNonNull(scenario, "scenario");
        this.counters = List.copyOf(counters);
        this.tally = Objects.requireNonNull(tally, "tally");
        this.wallNanos = wallNanos;
    }

    /** Provider attempts so far, background retries included. */
    long attempts() {
        long attempts = 0;
        for (ProviderCounters c : counters) {
            attempts += c.attempts();
        }
        return attempts;
    }

    /**
     * The failback retry period when this scenario queues retries in the background
     * ({@code cluster=failback}), else 0.
     */
    long backgroundPeriodMillis() {
        if (!"failback".equals(scenario.consumerUrl().getParameter("cluster"))) {
            return 0;
        }
        return scenario.consumerUrl().getParameter(FAILBACK_PERIOD_KEY, DEFAULT_FAILBACK_PERIOD_MILLIS);
    }

    ScenarioResult result() {
        List<ScenarioResult.ProviderTally> providers = new ArrayList<>();
        long attempts = 0;
        for (int i = 0; i < counters.size(); i++) {
            ProviderCounters c = counters.get(i);
            long a = c.attempts();
            attempts += a;
            providers.add(new ScenarioResult.ProviderTally(scenario.providers().get(i).name(), a, c.failures()));
        }
        Percentiles latency = Percentiles.of(tally.latencies());
        long calls = latency.count();
        return new ScenarioResult(scenario.title(), scenario.parameters(), calls,
                tally.count(CallTally.Outcome.OK), tally.count(CallTally.Outcome.EMPTY),
                tally.count(CallTally.Outcome.MOCKED), tally.count(CallTally.Outcome.FAILED),
                latency.percentile(50), latency.percentile(99), Math.max(0, attempts - calls), wallNanos,
                providers, tally.topError());
    }
}
