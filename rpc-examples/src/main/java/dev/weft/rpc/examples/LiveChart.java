package dev.weft.rpc.examples;

import java.util.List;
import java.util.Locale;
import java.util.function.ToDoubleFunction;

/**
 * The live run's section of the HTML report: two inline SVG time-series charts (answers per
 * provider per second with failed and mocked calls; p99 latency per second), each with the events
 * drawn as numbered vertical markers ({@code class="event-marker"}), and the timeline table (with
 * the providers that answered the canary-tagged calls of each window).
 * Stateless.
 */
final class LiveChart {

    static final String MARKER_CLASS = "event-marker";
    static final int WIDTH = 820;
    static final int HEIGHT = 280;
    private static final int LEFT = 60;
    private static final int RIGHT = 110;
    private static final int TOP = 16;
    private static final int BOTTOM = 34;
    /** The providers' colours, in order (the dashboard picture uses them too). */
    static final List<String> PALETTE = List.of("#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b",
            "#e377c2", "#17becf", "#bcbd22");
    private static final String FAILED_COLOR = "#cd3333";
    private static final String MOCKED_COLOR = "#555555";

    private LiveChart() {
    }

    /** Appends the section for {@code result} to {@code html}. */
    static void render(StringBuilder html, LiveRun.Result result) {
        List<TimeSeries.Point> seconds = result.series().seconds(result.durationMillis());
        html.append("<h2>Live cluster over time</h2>\n<p>Calls per second answered by each provider, mocked and failed,")
                .append(" as the consumer saw them; numbered lines are the governance and fault events below.</p>\n");
        double max = 1;
        for (TimeSeries.Point p : seconds) {
            for (long n : p.answered().values()) {
                max = Math.max(max, p.perSecond(n));
            }
            max = Math.max(max, Math.max(p.perSecond(p.failed()), p.perSecond(p.mocked())));
        }
        StringBuilder svg = open(html, "chart-calls");
        axes(svg, result.durationMillis(), max, "calls/s");
        for (int i = 0; i < result.providers().size(); i++) {
            String provider = result.providers().get(i);
            line(svg, seconds, result.durationMillis(), max, p -> p.perSecond(p.answered(provider)),
                    PALETTE.get(i % PALETTE.size()), provider);
        }
        line(svg, seconds, result.durationMillis(), max, p -> p.perSecond(p.mocked()), MOCKED_COLOR, "mocked");
        line(svg, seconds, result.durationMillis(), max, p -> p.perSecond(p.failed()), FAILED_COLOR, "failed");
        markers(svg, result);
        svg.append("</svg>\n");
        double maxP99 = 1;
        for (TimeSeries.Point p : seconds) {
            maxP99 = Math.max(maxP99, p.p99Nanos() / 1e6);
        }
        html.append("<h3>p99 latency per second (ms)</h3>\n");
        StringBuilder latency = open(html, "chart-p99");
        axes(latency, result.durationMillis(), maxP99, "ms");
        line(latency, seconds, result.durationMillis(), maxP99, p -> p.p99Nanos() / 1e6, "#1f4e79", "p99");
        markers(latency, result);
        latency.append("</svg>\n");
        timelineTable(html, result);
    }

    private static StringBuilder open(StringBuilder html, String id) {
        html.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" id=\"%s\" class=\"chart\" "
                + "width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" role=\"img\">\n", id, WIDTH, HEIGHT, WIDTH, HEIGHT));
        return html;
    }

    private static double x(long millis, long durationMillis) {
        return LEFT + (WIDTH - LEFT - RIGHT) * (double) millis / Math.max(1, durationMillis);
    }

    private static double y(double value, double max) {
        return TOP + (HEIGHT - TOP - BOTTOM) * (1 - value / max);
    }

    private static void axes(StringBuilder svg, long durationMillis, double max, String unit) {
        double bottom = y(0, max);
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#888\"/>\n",
                LEFT, bottom, WIDTH - RIGHT, bottom));
        svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%.1f\" stroke=\"#888\"/>\n",
                LEFT, TOP, LEFT, bottom));
        for (int k = 0; k <= 4; k++) {
            double value = max * k / 4;
            svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>\n",
                    LEFT - 6, y(value, max) + 4, format(value)));
        }
        long step = durationMillis <= 10_000 ? 1000 : 5000;
        for (long t = 0; t <= durationMillis; t += step) {
            svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"middle\">%d s</text>\n",
                    x(t, durationMillis), bottom + 16, t / 1000));
        }
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%d\">%s</text>\n", 4, TOP - 4,
                HtmlReport.escape(unit)));
    }

    private static String format(double value) {
        return value >= 10 ? String.format(Locale.ROOT, "%.0f", value) : String.format(Locale.ROOT, "%.1f", value);
    }

    private static void line(StringBuilder svg, List<TimeSeries.Point> seconds, long durationMillis, double max,
                             ToDoubleFunction<TimeSeries.Point> value, String color, String name) {
        if (seconds.isEmpty()) {
            return;
        }
        StringBuilder points = new StringBuilder();
        for (TimeSeries.Point p : seconds) {
            long mid = (p.fromMillis() + p.toMillis()) / 2;
            points.append(String.format(Locale.ROOT, "%.1f,%.1f ", x(mid, durationMillis), y(value.applyAsDouble(p), max)));
        }
        svg.append(String.format(Locale.ROOT,
                "<polyline class=\"series\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\" points=\"%s\"><title>%s</title></polyline>\n",
                color, points.toString().trim(), HtmlReport.escape(name)));
        TimeSeries.Point last = seconds.get(seconds.size() - 1);
        svg.append(String.format(Locale.ROOT, "<text x=\"%d\" y=\"%.1f\" fill=\"%s\">%s</text>\n", WIDTH - RIGHT + 6,
                y(value.applyAsDouble(last), max) + 4, color, HtmlReport.escape(name)));
    }

    private static void markers(StringBuilder svg, LiveRun.Result result) {
        for (int i = 0; i < result.events().size(); i++) {
            LiveRun.Applied event = result.events().get(i);
            double x = x(event.atMillis(), result.durationMillis());
            svg.append(String.format(Locale.ROOT, "<g class=\"%s\" data-at-ms=\"%d\"><title>%s %s</title>"
                            + "<line x1=\"%.1f\" y1=\"%d\" x2=\"%.1f\" y2=\"%d\" stroke=\"#444\" stroke-dasharray=\"4 3\"/>"
                            + "<text x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%d</text></g>\n",
                    MARKER_CLASS, event.atMillis(), event.event().at(), HtmlReport.escape(event.event().label()),
                    x, TOP, x, HEIGHT - BOTTOM, x, TOP - 4, i + 1));
        }
    }

    private static void timelineTable(StringBuilder html, LiveRun.Result result) {
        html.append("<h3>Timeline</h3>\n<table id=\"timeline\">\n<thead><tr><th>#</th><th>at</th><th>event</th>");
        for (String provider : result.providers()) {
            html.append("<th>").append(HtmlReport.escape(provider)).append(" /s</th>");
        }
        html.append("<th>mocked /s</th><th>failed</th><th>p99</th><th>canary-tagged calls answered by</th></tr></thead>\n<tbody>\n");
        List<Timeline.Row> rows = Timeline.rows(result);
        for (int i = 0; i < rows.size(); i++) {
            Timeline.Row row = rows.get(i);
            TimeSeries.Point w = row.window();
            html.append("<tr><td>").append(i == 0 ? "" : Integer.toString(i)).append("</td><td class=\"n\">")
                    .append(String.format(Locale.ROOT, "%.1f s", w.fromMillis() / 1000.0)).append("</td><td>")
                    .append(HtmlReport.escape(row.label())).append("</td>");
            for (String provider : result.providers()) {
                html.append(String.format(Locale.ROOT, "<td class=\"n\">%.0f</td>", w.perSecond(w.answered(provider))));
            }
            html.append(String.format(Locale.ROOT, "<td class=\"n\">%.0f</td><td class=\"n\">%d</td><td class=\"n\">%s</td>",
                    w.perSecond(w.mocked()), w.failed(), HtmlReport.escape(Durations.format(w.p99Nanos()))))
                    .append("<td class=\"tagged\">").append(HtmlReport.escape(Timeline.taggedAnswers(w, result.providers()))).append("</td></tr>\n");
        }
        html.append("</tbody>\n</table>\n");
    }
}
