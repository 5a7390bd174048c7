package dev.weft.rpc.examples;

import com.google.common.collect.ImmutableMultiset;
import dev.weft.rpc.testing.FakeTicker;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;

class DashboardSvgTest {

    private static final List<String> PROVIDERS = LiveFixtures.PROVIDERS;
    private static final Map<String, String> ADDRESSES = Map.of("a", "127.0.0.1:1", "b", "127.0.0.1:2",
            "c", "127.0.0.1:3", "d", "127.0.0.1:4", "e", "127.0.0.1:5");

    /** Meter readings of a 10 s run: each second every provider answers 10 more, 1 more call fails; 0.5 s each call. */
    private static LiveRun.Result result() {
        List<ConsumerMeters.Counts> seconds = new ArrayList<>();
        for (int s = 0; s <= 10; s++) {
            Map<String, Long> answered = new TreeMap<>();
            for (String address : ADDRESSES.values()) {
                answered.put(address, 10L * s);
            }
            TreeMap<Double, Long> buckets = new TreeMap<>(Map.of(0.25, 0L, 1.0, 51L * s, Double.POSITIVE_INFINITY, 51L * s));
            seconds.add(new ConsumerMeters.Counts(answered, 0, s, 0, 0, 0, buckets));
        }
        List<LiveRun.Applied> events = EventSchedule.standard(10_000, PROVIDERS, true).stream()
                .map(e -> new LiveRun.Applied(e, e.atMillis(), null)).toList();
        return new LiveRun.Result(PROVIDERS, 10_000, new TimeSeries(new FakeTicker(), PROVIDERS), events,
                ImmutableMultiset.of(), List.of(), ADDRESSES, seconds);
    }

    private static Document parse(String svg) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(svg.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void picture_isAWellFormedSvg_withTheThreePanels_andASeriesPerProvider() throws Exception {
        Document document = parse(DashboardSvg.render(result()));

        Element root = document.getDocumentElement();
        assertThat(root.getNamespaceURI()).isEqualTo(DashboardSvg.SVG_NS);
        assertThat(root.getLocalName()).isEqualTo("svg");
        assertThat(series(document, "panel-calls")).containsExactly("a", "b", "c", "d", "e");
        assertThat(series(document, "panel-p99")).containsExactly("p99");
        assertThat(series(document, "panel-errors")).containsExactly("failed");
        // ten points per series, one per second
        Element calls = (Element) panel(document, "panel-calls").getElementsByTagNameNS(DashboardSvg.SVG_NS, "polyline").item(0);
        assertThat(calls.getAttribute("points").split(" ")).hasSize(10);
    }

    @Test
    void mockCanaryAndBrownoutWindows_areShaded_fromTheirEventToTheEventThatEndsThem() throws Exception {
        List<DashboardSvg.Window> windows = DashboardSvg.windows(result());

        assertThat(windows).extracting(DashboardSvg.Window::kind).containsExactly("canary", "mock", "brownout");
        // the standard story over 10 s: canary 0.5-2.7 s, mock 1.2-2.0 s, brownout of c from 4.0 s to its disable at 5.4 s
        assertThat(windows).extracting(DashboardSvg.Window::fromMillis).containsExactly(500L, 1200L, 4000L);
        assertThat(windows).extracting(DashboardSvg.Window::toMillis).containsExactly(2700L, 2000L, 5400L);
        Document document = parse(DashboardSvg.render(result()));
        NodeList rects = document.getElementsByTagNameNS(DashboardSvg.SVG_NS, "rect");
        int shaded = 0;
        for (int i = 0; i < rects.getLength(); i++) {
            if (((Element) rects.item(i)).getAttribute("class").startsWith("window ")) {
                shaded++;
            }
        }
        assertThat(shaded).as("three windows in each of three panels").isEqualTo(9);
    }

    @Test
    void p99_isReadFromTheCallHistogram_asHistogramQuantileDoes() {
        TreeMap<Double, Long> buckets = new TreeMap<>(Map.of(0.1, 50L, 0.2, 90L, 0.4, 100L, Double.POSITIVE_INFINITY, 100L));
        ConsumerMeters.Counts counts = new ConsumerMeters.Counts(Map.of(), 0, 0, 0, 0, 0, buckets);

        // rank 99 of 100 falls in (0.2, 0.4]: 9 of its 10 calls below it
        assertThat(counts.callQuantile(0.99)).isCloseTo(0.38, within(1e-9));
        assertThat(counts.callQuantile(0.5)).isCloseTo(0.1, within(1e-9));
        assertThat(ConsumerMeters.Counts.NONE.callQuantile(0.99)).isZero();
    }

    @Test
    void aRunWithoutMeterReadings_isRefused_withTheReason() {
        LiveRun.Result withoutMeters = LiveFixtures.result();

        assertThatThrownBy(() -> DashboardSvg.render(withoutMeters)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("meterSeconds: 0 reading(s)");
    }

    private static Element panel(Document document, String id) {
        NodeList groups = document.getElementsByTagNameNS(DashboardSvg.SVG_NS, "g");
        for (int i = 0; i < groups.getLength(); i++) {
            Element group = (Element) groups.item(i);
            if (id.equals(group.getAttribute("id"))) {
                return group;
            }
        }
        throw new AssertionError("no panel " + id);
    }

    private static List<String> series(Document document, String panelId) {
        NodeList lines = panel(document, panelId).getElementsByTagNameNS(DashboardSvg.SVG_NS, "polyline");
        List<String> names = new ArrayList<>();
        for (int i = 0; i < lines.getLength(); i++) {
            names.add(((Element) lines.item(i)).getAttribute("data-series"));
        }
        return names;
    }
}
