package dev.weft.rpc.examples;

import java.util.ArrayList;
import java.util.List;

/**
 * The built-in tour: five providers (different weights, one 10x slower, one failing 20% of calls
 * with network errors, as in an outage) called with every cluster strategy, the main balancers, the third-party
 * {@code localfirst} balancer, and a {@code mock=fail:...} run during a full outage.
 */
final class DefaultScenarios {

    /** The default providers; see {@link PlaygroundCli#HELP}. */
    static final String PROVIDERS = "a:weight=100,zone=eu;b:weight=200,zone=us;c:weight=100,latency=10ms,zone=eu;"
            + "d:weight=100,fail=0.2,zone=us;e:weight=50,zone=eu";

    /** Consumer URL parameters of the tour, in order; the last one runs against an outage. */
    static final List<String> URLS = List.of(
            "cluster=failover&loadbalance=random",
            "cluster=failover&loadbalance=roundrobin",
            "cluster=failover&loadbalance=leastactive",
            "cluster=failover&loadbalance=p2c",
            "cluster=failover&loadbalance=localfirst&localfirst.zone=us",
            "cluster=failfast",
            "cluster=failsafe",
            "cluster=failback&failback.period=100",
            "cluster=forking&forks=2",
            "cluster=broadcast",
            "cluster=failover&mock=fail:return+fallback");

    static final String OUTAGE_TITLE_SUFFIX = " (outage)";

    private DefaultScenarios() {
    }

    /** The default providers, parsed. */
    static List<ProviderSpec> defaultProviders() {
        try {
            return ProviderSpecParser.parse(PROVIDERS);
        } catch (UsageException e) {
            throw new IllegalStateException("built-in provider spec: " + e.getMessage(), e);
        }
    }

    /** The tour against {@code providers}; the mock scenario runs with every provider down. */
    static List<Scenario> create(List<ProviderSpec> providers) {
        List<Scenario> scenarios = new ArrayList<>();
        for (int i = 0; i < URLS.size(); i++) {
            boolean outage = i == URLS.size() - 1;
            var url = parse(URLS.get(i));
            List<ProviderSpec> used = outage ? providers.stream().map(ProviderSpec::down).toList() : providers;
            String title = Scenario.titleOf(url) + (outage ? OUTAGE_TITLE_SUFFIX : "");
            scenarios.add(new Scenario(title, url, used));
        }
        return List.copyOf(scenarios);
    }

    private static dev.weft.rpc.common.URL parse(String parameters) {
        try {
            return ConsumerUrls.parse(parameters);
        } catch (UsageException e) {
            throw new IllegalStateException("built-in scenario: " + e.getMessage(), e);
        }
    }
}
