package dev.weft.rpc.examples;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The live run as text: one line per event (and one for the start) with what the consumer saw
 * from then until the next event: answers per second per provider, mocked and failed calls per
 * second, the p99 latency, and which providers answered the calls tagged for the canary; then the
 * same windows in the consumer's meters, with the hedges sent, providers ejected and retries the
 * budget refused. Stateless.
 */
final class Timeline {

    private Timeline() {
    }

    /** One row of the timeline: an event (or the start, {@code event == null}) and its window. */
    record Row(LiveRun.Applied event, TimeSeries.Point window) {

        String label() {
            if (event == null) {
                return "start: load on";
            }
            return event.event().label() + (event.error() == null ? "" : " FAILED: " + event.error());
        }
    }

    /** The rows of {@code result}: the start, then each applied event, each with its window. */
    static List<Row> rows(LiveRun.Result result) {
        List<Row> rows = new ArrayList<>();
        List<LiveRun.Applied> events = result.events();
        long from = 0;
        LiveRun.Applied current = null;
        for (LiveRun.Applied event : events) {
            rows.add(new Row(current, result.series().window(from, event.atMillis())));
            from = event.atMillis();
            current = event;
        }
        // an event applied after the load ended has an empty window
        rows.add(new Row(current, result.series().window(from, Math.max(from, result.durationMillis()))));
        return rows;
    }

    /**
     * One window as the consumer's meters counted it ({@code rpc-metrics-micrometer}): successful
     * attempts per provider ({@code rpc.client.attempt.duration}, {@code error.type=none}), mocked and
     * failed calls ({@code rpc.client.call.duration} by {@code outcome}), hedges sent
     * ({@code weft.client.hedges}), outlier ejections ({@code weft.client.ejections}) and retries or
     * hedges the budget refused ({@code weft.client.budget.exhausted}).
     */
    record MeterRow(String label, Map<String, Long> answered, long mocked, long failed, long hedges, long ejections,
                    long budgetExhausted) {

        MeterRow {
            answered = Collections.unmodifiableMap(new LinkedHashMap<>(answered)); // in the providers' order, as the columns
        }
    }

    /** The windows of {@link #rows} as the meters counted them; empty when the run read no meters. */
    static List<MeterRow> meterRows(LiveRun.Result result) {
        List<ConsumerMeters.Counts> marks = result.meterMarks();
        List<Row> rows = rows(result);
        if (marks.size() != rows.size() + 1) {
            return List.of();
        }
        List<MeterRow> meterRows = new ArrayList<>(rows.size());
        for (int i = 0; i < rows.size(); i++) {
            ConsumerMeters.Counts window = marks.get(i + 1).since(marks.get(i));
            Map<String, Long> answered = new LinkedHashMap<>();
            for (String provider : result.providers()) {
                answered.put(provider, window.answered(result.addresses().getOrDefault(provider, "")));
            }
            meterRows.add(new MeterRow(rows.get(i).label(), answered, window.mocked(), window.failed(), window.hedges(),
                    window.ejections(), window.budgetExhausted()));
        }
        return meterRows;
    }

    /** The timeline as terminal text. */
    static String render(LiveRun.Result result) {
        List<Row> rows = rows(result);
        int width = rows.stream().mapToInt(r -> r.label().length()).max().orElse(10);
        StringBuilder text = new StringBuilder();
        text.append(String.format(Locale.ROOT, "  %6s  %-" + width + "s  %s%n", "at", "event",
                "then the consumer saw (calls/s answered per provider | mocked | failed | p99 | tagged calls answered by)"));
        for (Row row : rows) {
            TimeSeries.Point w = row.window();
            StringBuilder seen = new StringBuilder();
            for (String provider : result.providers()) {
                seen.append(String.format(Locale.ROOT, "%s %4.0f  ", provider, w.perSecond(w.answered(provider))));
            }
            seen.append(String.format(Locale.ROOT, "| mocked %4.0f | failed %3d | p99 %s", w.perSecond(w.mocked()),
                    w.failed(), Durations.format(w.p99Nanos())));
            String tagged = taggedAnswers(w, result.providers());
            seen.append(tagged.isEmpty() ? "" : " | tagged: " + tagged);
            String at = row.event() == null ? "0.0 s" : String.format(Locale.ROOT, "%.1f s",
                    row.event().atMillis() / 1000.0);
            text.append(String.format(Locale.ROOT, "  %6s  %-" + width + "s  %s%n", at, row.label(), seen));
        }
        List<MeterRow> meterRows = meterRows(result);
        if (!meterRows.isEmpty()) {
            text.append(String.format(Locale.ROOT, "  %6s  %-" + width + "s  %s%n", "", "the same windows in the consumer's meters",
                    "(answered attempts per provider | mocked | failed calls | hedges | ejections | budget refusals)"));
            for (MeterRow row : meterRows) {
                StringBuilder seen = new StringBuilder();
                row.answered().forEach((provider, n) -> seen.append(String.format(Locale.ROOT, "%s %5d  ", provider, n)));
                seen.append(String.format(Locale.ROOT, "| mocked %5d | failed %3d | hedges %4d | ejections %2d | budget %4d",
                        row.mocked(), row.failed(), row.hedges(), row.ejections(), row.budgetExhausted()));
                text.append(String.format(Locale.ROOT, "  %6s  %-" + width + "s  %s%n", "", row.label(), seen));
            }
        }
        if (!result.errors().isEmpty()) {
            text.append("  failed calls by kind: ").append(result.errors()).append(System.lineSeparator());
        }
        return text.toString();
    }

    /**
     * E.g. {@code e 100/s}: the providers that answered the canary-tagged calls of the window, each
     * with its rate; empty when no tagged call was answered.
     */
    static String taggedAnswers(TimeSeries.Point window, List<String> providers) {
        List<String> answers = new ArrayList<>();
        for (String provider : providers) {
            long n = window.tagged(provider);
            if (n > 0) {
                answers.add(String.format(Locale.ROOT, "%s %.0f/s", provider, window.perSecond(n)));
            }
        }
        return String.join(" ", answers);
    }

    /** The whole run as one row of the results table, answers per provider as its bar chart. */
    static ScenarioResult summary(String title, String parameters, LiveRun.Result result) {
        TimeSeries.Point all = result.series().window(0, result.durationMillis());
        List<ScenarioResult.ProviderTally> providers = new ArrayList<>();
        for (String provider : result.providers()) {
            providers.add(new ScenarioResult.ProviderTally(provider, all.answered(provider), 0));
        }
        long ok = all.answered().values().stream().mapToLong(Long::longValue).sum();
        ScenarioResult.TopError top = result.errors().entrySet().stream()
                .max((x, y) -> Integer.compare(x.getCount(), y.getCount()))
                .map(e -> new ScenarioResult.TopError(e.getElement(), "", e.getCount())).orElse(null);
        return new ScenarioResult(title, parameters, all.calls(), ok, all.empty(), all.mocked(), all.failed(),
                all.p50Nanos(), all.p99Nanos(), 0, result.durationMillis() * 1_000_000, providers, top);
    }
}
