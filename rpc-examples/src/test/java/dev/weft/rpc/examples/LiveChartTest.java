package dev.weft.rpc.examples;

import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.NodeList;

import javax.xml.parsers.DocumentBuilderFactory;
import java.io.ByteArrayInputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class LiveChartTest {

    static String report() {
        return HtmlReport.render("Weft playground: live", List.of(Fixtures.failoverRandom()), LiveFixtures.result());
    }

    private static Document parse(String html) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/disallow-doctype-decl", false);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void report_hasTheTwoTimeSeriesCharts_eachWithOneMarkerPerEvent() throws Exception {
        Document page = parse(report());

        NodeList svgs = page.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg");
        Element calls = null;
        Element p99 = null;
        for (int i = 0; i < svgs.getLength(); i++) {
            Element svg = (Element) svgs.item(i);
            if (svg.getAttribute("id").equals("chart-calls")) {
                calls = svg;
            } else if (svg.getAttribute("id").equals("chart-p99")) {
                p99 = svg;
            }
        }
        assertThat(calls).isNotNull();
        assertThat(p99).isNotNull();
        assertThat(markers(calls)).containsExactly("500", "1200", "2000", "2700", "3300", "4000", "4700", "5400",
                "6200", "7000", "8000");
        assertThat(markers(p99)).hasSize(11);
        // one line per provider plus mocked and failed; p99 has one
        assertThat(calls.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline").getLength()).isEqualTo(7);
        assertThat(p99.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline").getLength()).isEqualTo(1);
    }

    @Test
    void callsLine_followsTheProviders_ofEachSecond() throws Exception {
        Element calls = page("chart-calls");
        NodeList lines = calls.getElementsByTagNameNS("http://www.w3.org/2000/svg", "polyline");
        Element providerD = (Element) lines.item(3);
        assertThat(providerD.getTextContent()).isEqualTo("d");
        String[] points = providerD.getAttribute("points").split(" ");
        assertThat(points).hasSize(10);
        // d answers before its kill at 6.2 s and never after: the last three seconds sit on the axis
        double axis = Double.parseDouble(points[9].split(",")[1]);
        assertThat(Double.parseDouble(points[0].split(",")[1])).isLessThan(axis);
        for (int s = 7; s < 10; s++) {
            assertThat(Double.parseDouble(points[s].split(",")[1])).isEqualTo(axis);
        }
    }

    @Test
    void timelineTable_listsEveryEvent() {
        String html = report();
        assertThat(html).contains("<table id=\"timeline\">", "provider b: override: weight=600",
                "provider d: killed (no graceful shutdown)", "ZooKeeper restarted",
                "<th>canary-tagged calls answered by</th>", "<td class=\"tagged\">e 24/s</td>");
    }

    private static Element page(String id) throws Exception {
        NodeList svgs = parse(report()).getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg");
        for (int i = 0; i < svgs.getLength(); i++) {
            if (((Element) svgs.item(i)).getAttribute("id").equals(id)) {
                return (Element) svgs.item(i);
            }
        }
        throw new AssertionError("no svg " + id);
    }

    private static List<String> markers(Element svg) {
        NodeList groups = svg.getElementsByTagNameNS("http://www.w3.org/2000/svg", "g");
        java.util.ArrayList<String> at = new java.util.ArrayList<>();
        for (int i = 0; i < groups.getLength(); i++) {
            Element g = (Element) groups.item(i);
            if (g.getAttribute("class").equals(LiveChart.MARKER_CLASS)) {
                at.add(g.getAttribute("data-at-ms"));
            }
        }
        return at;
    }
}
