package dev.weft.rpc.metrics.micrometer;

import dev.weft.rpc.bootstrap.Weft;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.config.MeterFilter;
import io.micrometer.core.instrument.distribution.DistributionStatisticConfig;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The meters as a Prometheus server scrapes them: names, labels and histogram buckets. */
class PrometheusScrapeTest {

    @Test
    void scrapeText_hasTheTimersByMethod_withHistogramBuckets_whenTheRegistryAsksForThem() {
        try (Weft provider = Weft.builder().build(); Weft consumer = Weft.builder().build()) {
            PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            meters.config().meterFilter(percentileHistogramsOf("rpc."));
            new WeftMetrics(provider.director()).bindTo(meters);
            new WeftMetrics(consumer.director()).bindTo(meters);
            String address = provider.export(Shop.class, new ShopImpl("a"), "weft://127.0.0.1:0")
                    .getInvoker().getUrl().getAddress();
            Shop shop = consumer.refer(Shop.class, "url=weft://" + address + "&timeout=2000");
            for (int i = 0; i < 5; i++) {
                shop.greet("ada");
            }

            String text = meters.scrape();

            String service = "rpc_service=\"" + Shop.class.getName() + "\"";
            assertThat(text).contains("# TYPE rpc_server_call_duration_seconds histogram");
            assertThat(line(text, "rpc_server_call_duration_seconds_count{", service, "rpc_method=\"greet\"", "error_type=\"none\""))
                    .endsWith(" 5");
            assertThat(line(text, "rpc_client_attempt_duration_seconds_count{", service, "server_address=\"" + address + "\""))
                    .endsWith(" 5");
            assertThat(line(text, "rpc_server_call_duration_seconds_bucket{", service, "le=\"+Inf\"")).endsWith(" 5");
            assertThat(text).contains("rpc_system=\"weft\"");
        }
    }

    @Test
    void withoutAMeterFilter_timersAreSummaries_withNoPercentileComputedInTheProcess() {
        try (Weft provider = Weft.builder().build()) {
            PrometheusMeterRegistry meters = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
            new WeftMetrics(provider.director()).bindTo(meters);
            String address = provider.export(Shop.class, new ShopImpl("a"), "weft://127.0.0.1:0").getInvoker().getUrl().getAddress();
            try (Weft consumer = Weft.builder().build()) {
                consumer.refer(Shop.class, "url=weft://" + address + "&timeout=2000").greet("ada");
            }

            String text = meters.scrape();

            assertThat(text).contains("# TYPE rpc_server_call_duration_seconds summary")
                    .doesNotContain("quantile=", "rpc_server_call_duration_seconds_bucket");
        }
    }

    /** The recipe of docs/observability.md: percentile histograms for the meters whose names start with {@code prefix}. */
    static MeterFilter percentileHistogramsOf(String prefix) {
        return new MeterFilter() {
            @Override
            public DistributionStatisticConfig configure(Meter.Id id, DistributionStatisticConfig config) {
                return id.getName().startsWith(prefix)
                        ? DistributionStatisticConfig.builder().percentilesHistogram(true).build().merge(config)
                        : config;
            }
        };
    }

    /** The one line of {@code text} starting with {@code prefix} and containing every one of {@code parts}. */
    static String line(String text, String prefix, String... parts) {
        return text.lines()
                .filter(l -> l.startsWith(prefix))
                .filter(l -> java.util.Arrays.stream(parts).allMatch(l::contains))
                .reduce((a, b) -> {
                    throw new AssertionError("more than one line matches " + prefix + " " + String.join(",", parts) + ":\n" + a + "\n" + b);
                })
                .orElseThrow(() -> new AssertionError("no line " + prefix + " " + String.join(",", parts) + " in:\n" + text));
    }
}
