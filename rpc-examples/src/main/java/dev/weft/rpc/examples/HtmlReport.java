package dev.weft.rpc.examples;

import java.util.List;
import java.util.Locale;

/**
 * The self-contained HTML report: the results table, the live cluster's time series with its
 * events ({@link LiveChart}) and inline SVG charts (outcomes per scenario, p50/p99 latency,
 * attempts per provider). No scripts, no external resources; the page
 * is well-formed XML (XHTML syntax) so it can also be checked by any XML parser. Stateless.
 */
final class HtmlReport {

    private static final String SVG_NS = "http://www.w3.org/2000/svg";
    private static final int LABEL_WIDTH = 230;
    private static final int PLOT_WIDTH = 480;
    private static final int ROW_HEIGHT = 22;
    private static final String OK_COLOR = "#2e8b57";
    private static final String EMPTY_COLOR = "#a0a0a0";
    private static final String MOCKED_COLOR = "#4169e1";
    private static final String FAILED_COLOR = "#cd3333";

    private HtmlReport() {
    }

    /** The page for {@code results}; {@code summary} is the run's one-line description. */
    static String render(String summary, List<ScenarioResult> results) {
        return render(summary, results, null);
    }

    /**
     * The page for {@code results} and, when {@code live} is not null, the live cluster's
     * time-series charts with the events marked.
     */
    static String render(String summary, List<ScenarioResult> results, LiveRun.Result live) {
        StringBuilder html = new StringBuilder(16_384);
        html.append("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n")
                .append("<meta charset=\"utf-8\"/>\n<title>Weft playground report</title>\n<style>\n")
                .append("body{font-family:system-ui,sans-serif;margin:2em;color:#222}")
                .append("table{border-collapse:collapse}th,td{padding:4px 10px;border-bottom:1px solid #ddd}")
                .append("td.n{text-align:right;font-variant-numeric:tabular-nums}th{text-align:left}")
                .append("code{background:#f4f4f4;padding:1px 4px}svg text{font-size:12px;font-family:sans-serif}")
                .append("\n</style>\n</head>\n<body>\n<h1>Weft playground report</h1>\n<p>")
                .append(escape(summary)).append("</p>\n");
        table(html, results);
        if (live != null) {
            LiveChart.render(html, live);
            meterTable(html, live);
        }
        html.append("<h2>Outcomes</h2>\n<p>Share of calls per outcome: ")
                .append(legend(OK_COLOR, "ok")).append(' ').append(legend(EMPTY_COLOR, "empty")).append(' ')
                .append(legend(MOCKED_COLOR, "mocked")).append(' ').append(legend(FAILED_COLOR, "failed"))
                .append("</p>\n");
        outcomesChart(html, results);
        html.append("<h2>Latency seen by the caller</h2>\n<p>")
                .append(legend("#8fb3d9", "p50")).append(' ').append(legend("#1f4e79", "p99")).append("</p>\n");
        latencyChart(html, results);
        html.append("<h2>Where the calls went</h2>\n<p>Attempts that reached each provider: ")
                .append(legend(OK_COLOR, "answered")).append(' ').append(legend(FAILED_COLOR, "failed"))
                .append("</p>\n");
        for (ScenarioResult result : results) {
            html.append("<h3>").append(escape(result.title())).append("</h3>\n<p><code>")
                    .append(escape(result.parameters())).append("</code></p>\n");
            providerChart(html, result);
        }
        html.append("</body>\n</html>\n");
        return html.toString();
    }

    /**
     * The live timeline as the consumer's meters counted it (the Prometheus registry that
     * {@code --metrics-port} serves): one row per window, successful attempts per provider, mocked
     * and failed calls. Nothing when the run read no meters.
     */
    private static void meterTable(StringBuilder html, LiveRun.Result live) {
        List<Timeline.MeterRow> rows = Timeline.meterRows(live);
        if (rows.isEmpty()) {
            return;
        }
        html.append("<h3>The same windows in the consumer's meters</h3>\n<p>From <code>rpc-metrics-micrometer</code>: ")
                .append("successful attempts per provider (<code>rpc.client.attempt.duration</code>), mocked and failed calls ")
                .append("(<code>rpc.client.call.duration</code> by <code>outcome</code>), hedges sent ")
                .append("(<code>weft.client.hedges</code>), outlier ejections (<code>weft.client.ejections</code>) and ")
                .append("retries or hedges the retry budget refused (<code>weft.client.budget.exhausted</code>).</p>\n")
                .append("<table id=\"meter-timeline\">\n<thead><tr><th>window from</th>");
        for (String provider : live.providers()) {
            html.append("<th>").append(escape(provider)).append("</th>");
        }
        html.append("<th>mocked</th><th>failed</th><th>hedges</th><th>ejections</th><th>budget refusals</th></tr></thead>\n<tbody>\n");
        for (Timeline.MeterRow row : rows) {
            html.append("<tr><td>").append(escape(row.label())).append("</td>");
            for (long n : row.answered().values()) {
                html.append("<td class=\"n\">").append(n).append("</td>");
            }
            for (long n : List.of(row.mocked(), row.failed(), row.hedges(), row.ejections(), row.budgetExhausted())) {
                html.append("<td class=\"n\">").append(n).append("</td>");
            }
            html.append("</tr>\n");
        }
        html.append("</tbody>\n</table>\n");
    }

    private static void table(StringBuilder html, List<ScenarioResult> results) {
        html.append("<table id=\"results\">\n<thead><tr>");
        for (String column : ResultTable.COLUMNS) {
            html.append("<th>").append(escape(column)).append("</th>");
        }
        html.append("<th>consumer URL parameters</th></tr></thead>\n<tbody>\n");
        for (ScenarioResult r : results) {
            html.append("<tr><td>").append(escape(r.title())).append("</td>");
            for (Object cell : List.of(r.ok(), r.empty(), r.mocked(), r.failed(), Durations.format(r.p50Nanos()),
                    Durations.format(r.p99Nanos()), r.retries())) {
                html.append("<td class=\"n\">").append(escape(String.valueOf(cell))).append("</td>");
            }
            html.append("<td><code>").append(escape(r.parameters())).append("</code></td></tr>\n");
        }
        html.append("</tbody>\n</table>\n");
    }

    private static void outcomesChart(StringBuilder html, List<ScenarioResult> results) {
        openSvg(html, results.size());
        for (int i = 0; i < results.size(); i++) {
            ScenarioResult r = results.get(i);
            int y = i * ROW_HEIGHT;
            label(html, y, r.title());
            double total = Math.max(1, r.calls());
            double x = LABEL_WIDTH;
            long[] counts = {r.ok(), r.empty(), r.mocked(), r.failed()};
            String[] colors = {OK_COLOR, EMPTY_COLOR, MOCKED_COLOR, FAILED_COLOR};
            for (int k = 0; k < counts.length; k++) {
                double width = PLOT_WIDTH * counts[k] / total;
                if (width > 0) {
                    rect(html, x, y + 3, width, ROW_HEIGHT - 6, colors[k], counts[k] + " of " + r.calls());
                    x += width;
                }
            }
        }
        html.append("</svg>\n");
    }

    private static void latencyChart(StringBuilder html, List<ScenarioResult> results) {
        long max = 1;
        for (ScenarioResult r : results) {
            max = Math.max(max, r.p99Nanos());
        }
        openSvg(html, results.size());
        for (int i = 0; i < results.size(); i++) {
            ScenarioResult r = results.get(i);
            int y = i * ROW_HEIGHT;
            label(html, y, r.title());
            double p99 = (double) PLOT_WIDTH * r.p99Nanos() / max;
            double p50 = (double) PLOT_WIDTH * r.p50Nanos() / max;
            rect(html, LABEL_WIDTH, y + 3, p99, ROW_HEIGHT - 6, "#1f4e79", "p99 " + Durations.format(r.p99Nanos()));
            rect(html, LABEL_WIDTH, y + 3, p50, ROW_HEIGHT - 6, "#8fb3d9", "p50 " + Durations.format(r.p50Nanos()));
            text(html, LABEL_WIDTH + p99 + 6, y + ROW_HEIGHT - 7, "start",
                    Durations.format(r.p50Nanos()) + " / " + Durations.format(r.p99Nanos()));
        }
        html.append("</svg>\n");
    }

    private static void providerChart(StringBuilder html, ScenarioResult result) {
        long max = 1;
        for (ScenarioResult.ProviderTally p : result.providers()) {
            max = Math.max(max, p.attempts());
        }
        openSvg(html, result.providers().size());
        for (int i = 0; i < result.providers().size(); i++) {
            ScenarioResult.ProviderTally p = result.providers().get(i);
            int y = i * ROW_HEIGHT;
            label(html, y, p.name());
            double answered = (double) PLOT_WIDTH * (p.attempts() - p.failures()) / max;
            double failed = (double) PLOT_WIDTH * p.failures() / max;
            rect(html, LABEL_WIDTH, y + 3, answered, ROW_HEIGHT - 6, OK_COLOR, (p.attempts() - p.failures()) + " answered");
            rect(html, LABEL_WIDTH + answered, y + 3, failed, ROW_HEIGHT - 6, FAILED_COLOR, p.failures() + " failed");
            text(html, LABEL_WIDTH + answered + failed + 6, y + ROW_HEIGHT - 7, "start",
                    p.attempts() + (p.failures() == 0 ? "" : " (" + p.failures() + " failed)"));
        }
        html.append("</svg>\n");
    }

    private static void openSvg(StringBuilder html, int rows) {
        int width = LABEL_WIDTH + PLOT_WIDTH + 160;
        int height = Math.max(1, rows) * ROW_HEIGHT;
        html.append(String.format(Locale.ROOT,
                "<svg xmlns=\"%s\" width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n",
                SVG_NS, width, height, width, height));
    }

    private static void label(StringBuilder html, int y, String label) {
        text(html, LABEL_WIDTH - 8, y + ROW_HEIGHT - 7, "end", label);
    }

    private static void rect(StringBuilder html, double x, double y, double width, double height, String color,
                             String title) {
        html.append(String.format(Locale.ROOT,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"><title>%s</title></rect>\n",
                x, y, width, height, color, escape(title)));
    }

    private static void text(StringBuilder html, double x, double y, String anchor, String text) {
        html.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>\n",
                x, y, anchor, escape(text)));
    }

    private static String legend(String color, String label) {
        return "<span style=\"color:" + color + "\">&#9632;</span> " + escape(label);
    }

    /** Escapes text for element content and attribute values. */
    static String escape(String text) {
        StringBuilder sb = new StringBuilder(text.length() + 16);
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '&' -> sb.append("&amp;");
                case '<' -> sb.append("&lt;");
                case '>' -> sb.append("&gt;");
                case '"' -> sb.append("&quot;");
                case '\'' -> sb.append("&#39;");
                default -> {
                    if (c < 0x20 && c != '\n' && c != '\t') {
                        sb.append(' ');
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.toString();
    }
}
