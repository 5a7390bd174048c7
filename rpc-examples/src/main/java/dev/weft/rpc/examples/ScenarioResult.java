package dev.weft.rpc.examples;

import java.util.List;
import java.util.Objects;

/**
 * The numbers of one finished scenario. Immutable.
 *
 * @param title      the scenario's title
 * @param parameters the consumer URL parameters ({@code k=v&...})
 * @param calls      calls made
 * @param ok         calls a provider answered
 * @param empty      calls that returned {@code null} (failures swallowed by failsafe/failback)
 * @param mocked     calls answered by the mock
 * @param failed     calls that threw
 * @param p50Nanos   median latency seen by the caller
 * @param p99Nanos   99th percentile latency seen by the caller
 * @param retries    provider attempts beyond one per call (failover/failback retries; for forking
 *                   and broadcast, the extra parallel or fan-out calls)
 * @param wallNanos  how long the scenario took
 * @param providers  attempts and failures per provider, in spec order
 * @param topError   the most frequent failure, or {@code null}
 */
record ScenarioResult(String title, String parameters, long calls, long ok, long empty, long mocked, long failed,
                      long p50Nanos, long p99Nanos, long retries, long wallNanos, List<ProviderTally> providers,
                      TopError topError) {

    ScenarioResult {
        Objects.requireNonNull(title, "title");
        Objects.requireNonNull(parameters, "parameters");
        providers = List.copyOf(providers);
    }

    /**
     * What one provider saw.
     *
     * @param name     the provider's name
     * @param attempts calls that reached it
     * @param failures of which failed (the failures the provider injected)
     */
    record ProviderTally(String name, long attempts, long failures) {
    }

    /**
     * The most frequent kind of failure in a scenario.
     *
     * @param kind   e.g. {@code RpcException(NETWORK)}
     * @param sample one message of that kind
     * @param count  how many calls failed with it
     */
    record TopError(String kind, String sample, long count) {
    }
}
