package dev.weft.rpc.examples;

import com.google.common.base.Preconditions;
import dev.weft.rpc.metrics.micrometer.WeftMetrics;
import dev.weft.rpc.spi.ExtensionDirector;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;


import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The live consumer's meters ({@code rpc-metrics-micrometer} bound to a Prometheus registry): what
 * {@code --metrics-port} serves and what the timeline's meter rows are read from, the same
 * scrape text in both cases. Thread-safe.
 */
final class ConsumerMeters implements AutoCloseable {

    /** A counter sample of the scrape text: name, labels, value. */
    private static final Pattern SAMPLE = Pattern.compile("^([a-zA-Z_:][a-zA-Z0-9_:]*)\\{([^}]*)} (\\S+)$", Pattern.MULTILINE);
    private static final Pattern LABEL = Pattern.compile("([a-zA-Z_][a-zA-Z0-9_]*)=\"((?:[^\"\\\\]|\\\\.)*)\"");
    private static final String ATTEMPTS = "rpc_client_attempt_duration_seconds_count";
    private static final String CALLS = "rpc_client_call_duration_seconds_count";
    private static final String HEDGES = "weft_client_hedges_total";
    private static final String EJECTIONS = "weft_client_ejections_total";
    private static final String BUDGET_EXHAUSTED = "weft_client_budget_exhausted_total";
    private static final String CALL_BUCKETS = "rpc_client_call_duration_seconds_bucket";

    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);

    /**
     * Binds the meters of {@code director}'s calls, with percentile histograms on for the
     * {@code rpc.} timers, so that a Prometheus server scraping {@code --metrics-port} can compute
     * percentiles across instances ({@code docs/observability.md}).
     */
    ConsumerMeters(ExtensionDirector director) {
        registry.config().meterFilter(new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                return id.getName().startsWith("rpc.")
                        ? DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config)
                        : config;
            }
        });
        new WeftMetrics(Objects.requireNonNull(director, "director")).bindTo(registry);
    }

    /** The meters as Prometheus text (format 0.0.4). */
    String scrape() {
        return registry.scrape();
    }

    /** What the meters have counted so far. */
    Counts counts() {
        return Counts.parse(scrape());
    }

    @Override
    public void close() {
        registry.close();
    }

    /**
     * Counts read from a scrape: the attempts each provider address answered (no error), the
     * calls by outcome ({@code mocked}, {@code error}) when the call meter is there, and the
     * resilience decisions ({@code weft.client.hedges}, {@code weft.client.ejections},
     * {@code weft.client.budget.exhausted}). Immutable.
     *
     * @param answeredByAddress successful attempts by {@code host:port}
     * @param mocked            calls the mock answered
     * @param failed            calls that ended with an error
     * @param hedges            hedges sent
     * @param ejections         providers ejected as outliers
     * @param budgetExhausted   retries and hedges the retry budget refused
     * @param callBuckets       the call timer's histogram ({@code rpc.client.call.duration}, every
     *                          method and outcome added up): calls that took at most {@code le} seconds, by {@code le}
     */
    record Counts(Map<String, Long> answeredByAddress, long mocked, long failed, long hedges, long ejections,
                  long budgetExhausted, SortedMap<Double, Long> callBuckets) {

        static final Counts NONE = new Counts(Map.of(), 0, 0, 0, 0, 0, new TreeMap<>());

        Counts {
            answeredByAddress = Map.copyOf(answeredByAddress);
            callBuckets = Collections.unmodifiableSortedMap(new TreeMap<>(callBuckets));
        }

        /**
         * The {@code q} quantile (0..1) of the call durations in {@link #callBuckets}, in seconds, found
         * as Prometheus' {@code histogram_quantile} does: the bucket where the rank falls, interpolated
         * linearly within it; 0 when no call was counted, the highest finite bound when the rank falls
         * in the {@code +Inf} bucket.
         */
        double callQuantile(double q) {
            Preconditions.checkArgument(q >= 0 && q <= 1, "q: %s (expected: 0..1)", q);
            if (callBuckets.isEmpty() || callBuckets.get(callBuckets.lastKey()) <= 0) {
                return 0;
            }
            double rank = q * callBuckets.get(callBuckets.lastKey());
            double lowerBound = 0;
            long lowerCount = 0;
            for (Map.Entry<Double, Long> bucket : callBuckets.entrySet()) {
                if (bucket.getValue() >= rank) {
                    if (bucket.getKey().isInfinite()) {
                        return lowerBound;
                    }
                    long inBucket = bucket.getValue() - lowerCount;
                    return inBucket == 0 ? bucket.getKey()
                            : lowerBound + (bucket.getKey() - lowerBound) * (rank - lowerCount) / inBucket;
                }
                lowerBound = bucket.getKey();
                lowerCount = bucket.getValue();
            }
            return lowerBound;
        }

        /** The counts in {@code scrapeText}. */
        static Counts parse(String scrapeText) {
            Map<String, Long> answered = new TreeMap<>();
            long mocked = 0;
            long failed = 0;
            long hedges = 0;
            long ejections = 0;
            long budgetExhausted = 0;
            SortedMap<Double, Long> buckets = new TreeMap<>();
            Matcher sample = SAMPLE.matcher(scrapeText);
            while (sample.find()) {
                String name = sample.group(1);
                long value = (long) Double.parseDouble(sample.group(3));
                switch (name) {
                    case HEDGES -> hedges += value;
                    case EJECTIONS -> ejections += value;
                    case BUDGET_EXHAUSTED -> budgetExhausted += value;
                    case CALL_BUCKETS -> buckets.merge(bound(labels(sample.group(2)).get("le")), value, Long::sum);
                    default -> {
                        // the call and attempt meters below, or a meter the timeline does not show
                    }
                }
                if (!name.equals(ATTEMPTS) && !name.equals(CALLS)) {
                    continue;
                }
                Map<String, String> labels = labels(sample.group(2));
                if (name.equals(ATTEMPTS) && "none".equals(labels.get("error_type"))) {
                    answered.merge(labels.get("server_address"), value, Long::sum);
                } else if (name.equals(CALLS)) {
                    String outcome = labels.get("outcome");
                    if ("mocked".equals(outcome)) {
                        mocked += value;
                    } else if ("error".equals(outcome)) {
                        failed += value;
                    }
                }
            }
            return new Counts(answered, mocked, failed, hedges, ejections, budgetExhausted, buckets);
        }

        private static double bound(String le) {
            return "+Inf".equals(le) ? Double.POSITIVE_INFINITY : Double.parseDouble(le);
        }

        /** What was counted between {@code earlier} and these counts. */
        Counts since(Counts earlier) {
            Map<String, Long> answered = new TreeMap<>(answeredByAddress);
            earlier.answeredByAddress.forEach((address, n) -> answered.merge(address, -n, Long::sum));
            SortedMap<Double, Long> buckets = new TreeMap<>(callBuckets);
            earlier.callBuckets.forEach((le, n) -> buckets.merge(le, -n, Long::sum));
            return new Counts(answered, mocked - earlier.mocked, failed - earlier.failed, hedges - earlier.hedges,
                    ejections - earlier.ejections, budgetExhausted - earlier.budgetExhausted, buckets);
        }

        /** Successful attempts at {@code address}. */
        long answered(String address) {
            return answeredByAddress.getOrDefault(address, 0L);
        }

        private static Map<String, String> labels(String text) {
            Map<String, String> labels = new TreeMap<>();
            Matcher label = LABEL.matcher(text);
            while (label.find()) {
                labels.put(label.group(1), label.group(2));
            }
            return labels;
        }
    }
}
