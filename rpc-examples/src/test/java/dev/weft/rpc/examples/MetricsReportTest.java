package dev.weft.rpc.examples;

import com.google.common.base.Ticker;
import org.junit.jupiter.api.Test;

import java.io.PrintStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A short live run with the consumer's meters served as Prometheus text: the scrape text, the
 * timeline's meter rows, the HTML report and the caller's own record of every call agree.
 */
class MetricsReportTest {

    private static final long DURATION_MILLIS = 4_000;

    @Test
    void scrapeText_andTheTimelinesMeterRows_agreeWithWhatTheCallersSaw() throws Exception {
        List<ProviderSpec> specs = DefaultScenarios.defaultProviders();
        List<String> names = specs.stream().map(ProviderSpec::name).toList();
        // The mock is on for 1.2 s: a rule reaches the consumer through ZooKeeper, late on a loaded
        // machine, and one that arrives after the rule that ends it leaves no window at all.
        List<LiveEvent> events = List.of(new LiveEvent(600, LiveEvent.Kind.MOCK_ON, null),
                new LiveEvent(1_800, LiveEvent.Kind.MOCK_OFF, null), new LiveEvent(2_400, LiveEvent.Kind.WEIGHT, "b"),
                new LiveEvent(3_200, LiveEvent.Kind.DISABLE, "c"));
        try (LiveCluster cluster = LiveCluster.start(specs, null, false, Set.of(), 42, "loadbalance=roundrobin&timeout=1000");
             MetricsEndpoint endpoint = MetricsEndpoint.start(0, cluster.meters()::scrape)) {
            assertThat(cluster.warmUp(10_000)).containsExactlyInAnyOrderElementsOf(names);
            ProgressBar quiet = new ProgressBar(new PrintStream(OutputStream.nullOutputStream()), false, DURATION_MILLIS);

            LiveRun.Result result = new LiveRun(DURATION_MILLIS, 2, 100)
                    .run(cluster.consumer(), names, events, cluster::apply, quiet, Ticker.systemTicker(), cluster.meterSource());
            String scraped = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(endpoint.url()))
                    .timeout(Duration.ofSeconds(10)).build(), HttpResponse.BodyHandlers.ofString()).body();

            assertThat(endpoint.url()).startsWith("http://127.0.0.1:");
            assertThat(scraped).contains("# TYPE rpc_client_attempt_duration_seconds histogram",
                    "weft_registry_providers{rpc_service=\"" + GreetingService.class.getName() + "\",rpc_system=\"weft\"}");
            ConsumerMeters.Counts sinceStart = ConsumerMeters.Counts.parse(scraped).since(result.meterMarks().get(0));
            List<Timeline.MeterRow> rows = Timeline.meterRows(result);
            assertThat(rows).hasSize(events.size() + 1);
            // Calls started before the end may finish up to a timeout later; the meters count them too.
            TimeSeries.Point whole = result.series().window(0, DURATION_MILLIS + 10_000);
            for (String provider : names) {
                long inRows = rows.stream().mapToLong(row -> row.answered().get(provider)).sum();
                long inScrape = sinceStart.answered(result.addresses().get(provider));
                assertThat(inRows).as("meter rows of %s against the scrape", provider).isEqualTo(inScrape);
                assertThat(inRows).as("meter rows of %s against the callers' own count", provider)
                        .isEqualTo(whole.answered(provider));
            }
            assertThat(rows.stream().mapToLong(Timeline.MeterRow::mocked).sum()).as("mocked calls, meters against callers")
                    .isEqualTo(whole.mocked()).isEqualTo(sinceStart.mocked()).isPositive();
            assertThat(rows.stream().mapToLong(Timeline.MeterRow::failed).sum()).isEqualTo(whole.failed());
            // a rule reaches the consumer through ZooKeeper: on a loaded machine, after the window it was written in
            assertThat(rows.get(1).mocked() + rows.get(2).mocked()).as("the window of the mock rule, or the next").isPositive();
            assertThat(rows.get(4).answered().get("c")).as("c disabled for the last window")
                    .isLessThan(rows.get(3).answered().get("c"));
            String html = HtmlReport.render("live", List.of(Timeline.summary("live", "", result)), result);
            assertThat(html).contains("<table id=\"meter-timeline\">", "<td class=\"n\">" + rows.get(0).answered().get("a") + "</td>");
            assertThat(Timeline.render(result)).contains("the same windows in the consumer's meters");
            // one meter reading per second of the load, drawn as the dashboard picture
            assertThat(result.meterSeconds()).hasSize((int) (DURATION_MILLIS / 1000) + 1);
            String svg = DashboardSvg.render(result);
            assertThat(svg).startsWith("<?xml").contains("id=\"panel-calls\"", "id=\"panel-p99\"", "id=\"panel-errors\"",
                    "class=\"window window-mock\"");
            for (String provider : names) {
                assertThat(svg).contains("data-series=\"" + provider + "\"");
            }
            ConsumerMeters.Counts wholeRun = result.meterSeconds().get(result.meterSeconds().size() - 1)
                    .since(result.meterSeconds().get(0));
            assertThat(wholeRun.callQuantile(0.99)).as("p99 from the call histogram, s").isPositive().isLessThan(10);
        }
    }
}
