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

class HtmlReportTest {

    private static Document parse(String html) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(true);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        return factory.newDocumentBuilder().parse(new ByteArrayInputStream(html.getBytes(StandardCharsets.UTF_8)));
    }

    @Test
    void report_isWellFormed_andHoldsTheTable() throws Exception {
        String html = HtmlReport.render("Weft playground: 2 scenarios", List.of(Fixtures.failoverRandom(),
                Fixtures.failfastWithFailures()));

        Document document = parse(html);
        Element table = document.getElementById("results") != null ? document.getElementById("results")
                : findTable(document);
        NodeList rows = table.getElementsByTagNameNS("*", "tr");
        assertThat(rows.getLength()).isEqualTo(3); // header + 2 scenarios
        assertThat(rows.item(1).getTextContent()).contains("failover + random", "1000", "1.23ms", "11.4ms", "42");
        assertThat(rows.item(2).getTextContent()).contains("failfast <&>", "950", "50", "1.50s");
    }

    @Test
    void report_isSelfContained_withInlineSvgCharts() throws Exception {
        String html = HtmlReport.render("summary", List.of(Fixtures.failoverRandom(), Fixtures.failfastWithFailures()));

        Document document = parse(html);
        // outcomes + latency + one provider chart per scenario
        assertThat(document.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg").getLength()).isEqualTo(4);
        assertThat(html).doesNotContain("<script", "http://cdn", "src=\"http", "href=\"http");
        assertThat(html).startsWith("<!DOCTYPE html>");
    }

    @Test
    void text_isEscaped() {
        String html = HtmlReport.render("a < b & \"c\"", List.of(Fixtures.failfastWithFailures()));

        assertThat(html).contains("a &lt; b &amp; &quot;c&quot;", "failfast &lt;&amp;&gt;",
                "cluster=failfast&amp;x=&quot;q&quot;");
        assertThat(HtmlReport.escape("<'&>")).isEqualTo("&lt;&#39;&amp;&gt;");
    }

    private static Element findTable(Document document) {
        NodeList tables = document.getElementsByTagNameNS("*", "table");
        for (int i = 0; i < tables.getLength(); i++) {
            Element table = (Element) tables.item(i);
            if ("results".equals(table.getAttribute("id"))) {
                return table;
            }
        }
        throw new AssertionError("no table with id=results");
    }
}
