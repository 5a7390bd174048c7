package dev.weft.rpc.examples;

import java.nio.file.Path;
import java.util.List;

/**
 * What the command line asked for. Immutable.
 *
 * @param urls      consumer URLs given with {@code --url}, in order; empty means the default scenarios
 * @param providers the providers from {@code --providers}, or {@code null} for the default five
 * @param calls     calls per scenario
 * @param threads   calling threads per scenario
 * @param seed      seed of the providers' latencies and failures
 * @param report    where to write the HTML report, or {@code null} for none
 * @param logLevel  the slf4j-simple level given with {@code --log} (off, error, warn, info, debug, trace),
 *                  or {@code null} to keep the configured one (off, from {@code simplelogger.properties})
 * @param help      whether {@code --help} was given (everything else is then ignored)
 * @param live      the live cluster run's settings
 */
record PlaygroundOptions(List<String> urls, List<ProviderSpec> providers, int calls, int threads, long seed,
                         Path report, String logLevel, boolean help, Live live) {

    static final int DEFAULT_CALLS = 1000;
    static final int DEFAULT_THREADS = 8;
    static final long DEFAULT_SEED = 42;

    /**
     * The live cluster run.
     *
     * @param durationMillis how long the load runs (0: no live run)
     * @param rate           calls per second the consumer makes
     * @param zookeeper      an external ZooKeeper {@code host:port}, or {@code null} for the embedded one
     * @param processes      whether every provider runs in a child JVM
     * @param parameters     the live consumer's URL parameters
     * @param tour           whether the tour of strategies runs too
     * @param metricsPort    the loopback port serving the consumer's meters as Prometheus text
     *                       ({@code --metrics-port}; 0 = a free port), or -1 for none
     * @param dashboard      where to write the dashboard picture of the live run ({@code --dashboard},
     *                       an SVG drawn from the consumer's meters), or {@code null} for none
     */
    record Live(long durationMillis, int rate, String zookeeper, boolean processes, String parameters, boolean tour,
                int metricsPort, Path dashboard) {

        /** No metrics endpoint. */
        static final int NO_METRICS_PORT = -1;

        /** Settings without a metrics endpoint or a dashboard picture. */
        Live(long durationMillis, int rate, String zookeeper, boolean processes, String parameters, boolean tour) {
            this(durationMillis, rate, zookeeper, processes, parameters, tour, NO_METRICS_PORT, null);
        }

        static final long DEFAULT_DURATION_MILLIS = 15_000;
        static final int DEFAULT_RATE = 400;
        static final String DEFAULT_PARAMETERS = "loadbalance=roundrobin&timeout=1000";

        static Live defaults() {
            return new Live(DEFAULT_DURATION_MILLIS, DEFAULT_RATE, null, false, DEFAULT_PARAMETERS, true);
        }
    }

    PlaygroundOptions {
        urls = List.copyOf(urls);
        providers = providers == null ? null : List.copyOf(providers);
    }

    /** Whether the run uses the built-in scenario list rather than {@code --url}s. */
    boolean defaultScenarios() {
        return urls.isEmpty();
    }
}
