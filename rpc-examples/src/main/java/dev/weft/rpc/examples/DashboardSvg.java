package dev.weft.rpc.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.ToDoubleFunction;

/**
 * A Grafana-style picture of a live run drawn from the consumer's meters alone (the scrape text
 * read once a second, {@link LiveRun.Result#meterSeconds}): three stacked panels sharing the time
 * axis, answered calls per second per provider ({@code rpc.client.attempt.duration} counts by
 * {@code server.address}), the calls' p99 latency ({@code histogram_quantile(0.99, ...)} of
 * {@code rpc.client.call.duration}'s buckets) and failed calls per second ({@code outcome=error}),
 * with the mock, canary and brownout windows shaded. A standalone SVG document (no scripts, no
 * external resources): {@code docs/images/playground-dashboard.svg} is one. Stateless.
 */
final class DashboardSvg {

    static final String SVG_NS = "http://www.w3.org/2000/svg";
    static final int WIDTH = 900;
    static final int PANEL_HEIGHT = 170;
    private static final int LEFT = 64;
    private static final int RIGHT = 120;
    private static final int TITLE = 26;
    private static final int GAP = 24;
    private static final int BOTTOM = 30;

    /** A shaded stretch of the run: from an event to the one that ends it (or the end of the run). */
    record Window(String kind, String label, long fromMillis, long toMillis) {
    }

    /** One panel: its id, title, unit and value per second. */
    private record Panel(String id, String title, String unit, List<Series> series) {
    }

    private record Series(String name, String color, double[] values) {
    }

    private DashboardSvg() {
    }

    /**
     * The picture of {@code result}.
     *
     * @throws IllegalArgumentException when the run read no meters each second (fewer than two readings)
     */
    static String render(LiveRun.Result result) {
        List<ConsumerMeters.Counts> seconds = result.meterSeconds();
        if (seconds.size() < 2) {
            throw new IllegalArgumentException("meterSeconds: " + seconds.size() + " reading(s) (expected: a live run"
                    + " that read the consumer's meters every second)");
        }
        List<ConsumerMeters.Counts> perSecond = new ArrayList<>();
        for (int i = 1; i < seconds.size(); i++) {
            perSecond.add(seconds.get(i).since(seconds.get(i - 1)));
        }
        List<Series> calls = new ArrayList<>();
        for (int p = 0; p < result.providers().size(); p++) {
            String provider = result.providers().get(p);
            String address = result.addresses().getOrDefault(provider, "");
            String color = LiveChart.PALETTE.get(p % LiveChart.PALETTE.size());
            calls.add(new Series(provider, color, values(perSecond, c -> c.answered(address))));
        }
        List<Panel> panels = List.of(
                new Panel("panel-calls", "answered calls/s per provider", "calls/s", calls),
                new Panel("panel-p99", "p99 call latency", "ms",
                        List.of(new Series("p99", "#1f4e79", values(perSecond, c -> c.callQuantile(0.99) * 1000)))),
                new Panel("panel-errors", "failed calls/s", "calls/s",
                        List.of(new Series("failed", "#cd3333", values(perSecond, ConsumerMeters.Counts::failed)))));
        long durationMillis = perSecond.size() * 1000L;
        int height = panels.size() * (TITLE + PANEL_HEIGHT + GAP) + BOTTOM;
        StringBuilder svg = new StringBuilder(16_384);
        svg.append(String.format(Locale.ROOT, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>%n<svg xmlns=\"%s\" id=\"dashboard\""
                + " width=\"%d\" height=\"%d\" viewBox=\"0 0 %d %d\" font-family=\"sans-serif\" font-size=\"12\">%n",
                SVG_NS, WIDTH, height, WIDTH, height));
        svg.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#ffffff\"/>%n", WIDTH, height));
        List<Window> windows = windows(result);
        int top = 0;
        for (Panel panel : panels) {
            panel(svg, panel, windows, durationMillis, top);
            top += TITLE + PANEL_HEIGHT + GAP;
        }
        text(svg, LEFT + (WIDTH - LEFT - RIGHT) / 2.0, height - 8, "middle", "seconds into the live run"
                + " (shaded: " + String.join(", ", windows.stream().map(Window::kind).distinct().toList()) + ")");
        svg.append("</svg>\n");
        return svg.toString();
    }

    /** The shaded windows: mock on to off, canary on to off, brownout to the provider's disable, kill or shutdown. */
    static List<Window> windows(LiveRun.Result result) {
        List<Window> windows = new ArrayList<>();
        List<LiveRun.Applied> events = result.events();
        for (int i = 0; i < events.size(); i++) {
            LiveEvent event = events.get(i).event();
            String kind = switch (event.kind()) {
                case MOCK_ON -> "mock";
                case CANARY_ON -> "canary";
                case BROWNOUT_SLOW -> "brownout";
                default -> null;
            };
            if (kind == null) {
                continue;
            }
            long to = result.durationMillis();
            for (int j = i + 1; j < events.size(); j++) {
                if (ends(event, events.get(j).event())) {
                    to = events.get(j).atMillis();
                    break;
                }
            }
            windows.add(new Window(kind, event.label(), events.get(i).atMillis(), Math.min(to, result.durationMillis())));
        }
        return windows;
    }

    private static boolean ends(LiveEvent start, LiveEvent later) {
        return switch (start.kind()) {
            case MOCK_ON -> later.kind() == LiveEvent.Kind.MOCK_OFF;
            case CANARY_ON -> later.kind() == LiveEvent.Kind.CANARY_OFF && later.provider().equals(start.provider())
                    || later.provider() != null && later.provider().equals(start.provider())
                    && (later.kind() == LiveEvent.Kind.SHUTDOWN || later.kind() == LiveEvent.Kind.KILL);
            case BROWNOUT_SLOW -> start.provider().equals(later.provider()) && (later.kind() == LiveEvent.Kind.DISABLE
                    || later.kind() == LiveEvent.Kind.KILL || later.kind() == LiveEvent.Kind.SHUTDOWN);
            default -> false;
        };
    }

    private static double[] values(List<ConsumerMeters.Counts> perSecond, ToDoubleFunction<ConsumerMeters.Counts> value) {
        double[] values = new double[perSecond.size()];
        for (int i = 0; i < values.length; i++) {
            values[i] = value.applyAsDouble(perSecond.get(i));
        }
        return values;
    }

    private static void panel(StringBuilder svg, Panel panel, List<Window> windows, long durationMillis, int top) {
        double max = 1;
        for (Series series : panel.series()) {
            for (double v : series.values()) {
                max = Math.max(max, v);
            }
        }
        max = niceCeiling(max);
        int plotTop = top + TITLE;
        int plotBottom = plotTop + PANEL_HEIGHT;
        double plotWidth = WIDTH - LEFT - RIGHT;
        svg.append(String.format(Locale.ROOT, "<g class=\"panel\" id=\"%s\">%n", panel.id()));
        text(svg, LEFT, top + 17, "start", panel.title() + " (" + panel.unit() + ")");
        for (Window window : windows) {
            double x0 = LEFT + plotWidth * window.fromMillis() / durationMillis;
            double x1 = LEFT + plotWidth * Math.min(window.toMillis(), durationMillis) / durationMillis;
            svg.append(String.format(Locale.ROOT, "<rect class=\"window window-%s\" x=\"%.1f\" y=\"%d\" width=\"%.1f\""
                            + " height=\"%d\" fill=\"%s\" fill-opacity=\"0.18\"><title>%s</title></rect>%n",
                    window.kind(), x0, plotTop, Math.max(0, x1 - x0), PANEL_HEIGHT, shade(window.kind()),
                    HtmlReport.escape(window.label())));
            text(svg, x0 + 3, plotTop + 12, "start", window.kind());
        }
        for (int k = 0; k <= 4; k++) {
            double y = plotBottom - PANEL_HEIGHT * k / 4.0;
            svg.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#e0e0e0\"/>%n",
                    LEFT, y, LEFT + plotWidth, y));
            text(svg, LEFT - 6, y + 4, "end", format(max * k / 4));
        }
        for (long s = 0; s <= durationMillis / 1000; s += Math.max(1, durationMillis / 1000 / 10)) {
            double x = LEFT + plotWidth * s * 1000 / durationMillis;
            text(svg, x, plotBottom + 14, "middle", Long.toString(s));
        }
        for (int i = 0; i < panel.series().size(); i++) {
            Series series = panel.series().get(i);
            StringBuilder points = new StringBuilder();
            for (int s = 0; s < series.values().length; s++) {
                double x = LEFT + plotWidth * (s + 0.5) / series.values().length;
                double y = plotBottom - PANEL_HEIGHT * series.values()[s] / max;
                points.append(String.format(Locale.ROOT, "%s%.1f,%.1f", s == 0 ? "" : " ", x, y));
            }
            svg.append(String.format(Locale.ROOT, "<polyline class=\"series\" data-series=\"%s\" fill=\"none\" stroke=\"%s\""
                    + " stroke-width=\"2\" points=\"%s\"><title>%s</title></polyline>%n", HtmlReport.escape(series.name()),
                    series.color(), points, HtmlReport.escape(series.name())));
            double legendY = plotTop + 14 + i * 16;
            svg.append(String.format(Locale.ROOT, "<rect x=\"%.1f\" y=\"%.1f\" width=\"10\" height=\"10\" fill=\"%s\"/>%n",
                    LEFT + plotWidth + 12, legendY - 9, series.color()));
            text(svg, LEFT + plotWidth + 26, legendY, "start", series.name());
        }
        svg.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%.1f\" height=\"%d\" fill=\"none\" stroke=\"#999999\"/>%n",
                LEFT, plotTop, plotWidth, PANEL_HEIGHT));
        svg.append("</g>\n");
    }

    private static String shade(String kind) {
        return Map.of("mock", "#4169e1", "canary", "#2ca02c", "brownout", "#cd3333").getOrDefault(kind, "#999999");
    }

    /** 1, 2 or 5 times a power of ten, at least {@code value}. */
    static double niceCeiling(double value) {
        double power = Math.pow(10, Math.floor(Math.log10(value)));
        for (double step : new double[] {1, 2, 5, 10}) {
            if (step * power >= value) {
                return step * power;
            }
        }
        return 10 * power;
    }

    private static String format(double value) {
        return java.math.BigDecimal.valueOf(value).setScale(3, java.math.RoundingMode.HALF_UP).stripTrailingZeros()
                .toPlainString();
    }

    private static void text(StringBuilder svg, double x, double y, String anchor, String text) {
        svg.append(String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\">%s</text>%n",
                x, y, anchor, HtmlReport.escape(text)));
    }
}
